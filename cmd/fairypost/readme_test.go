package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's root, seen from this package.
var repoRoot = filepath.Join("..", "..")

// proseDocs are the documents a reader follows: the README and the pages
// of docs/ (rules pages included), relative to the repository's root.
func proseDocs(t *testing.T) []string {
	t.Helper()
	docs := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/*/*.md"} {
		m, err := filepath.Glob(filepath.Join(repoRoot, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, err := filepath.Rel(repoRoot, p)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, filepath.ToSlash(rel))
		}
	}
	if len(docs) < 3 {
		t.Fatalf("found only %q: is docs/ missing?", docs)
	}
	return docs
}

// docLine is one line of a markdown document, with its line number.
type docLine struct {
	n    int
	text string
}

// splitFenced returns the lines of a markdown document outside fenced
// code blocks (prose) and inside them (code), each with its number.
func splitFenced(doc string) (prose, code []docLine) {
	inFence := false
	for i, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			code = append(code, docLine{i + 1, line})
		} else {
			prose = append(prose, docLine{i + 1, line})
		}
	}
	return prose, code
}

var (
	codeSpan     = regexp.MustCompile("`([^`]+)`")
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	pathLike     = regexp.MustCompile(`^[A-Za-z0-9_.<>*-]+(/[A-Za-z0-9_.<>*-]*)*$`)
	explicitID   = regexp.MustCompile(`<a id="([^"]+)"></a>`)
)

// repoPath reports whether a code span of prose names a file or folder
// of the repository: a name whose first part is one of the repository's
// top-level entries (`rules/variant_tank.go`, `.ci/run`), or any name of
// a markdown file (`RULES.md`), which can only be a document.
func repoPath(span string, top map[string]bool) bool {
	if !pathLike.MatchString(span) || strings.HasPrefix(span, "/") {
		return false
	}
	first, _, _ := strings.Cut(span, "/")
	return top[first] || strings.HasSuffix(span, ".md")
}

// TestDocsNameRealPaths checks every repository path the README and the
// pages of docs/ name in backquotes: each must exist (a pattern with *
// must match at least one file), so that a reader who looks for a file
// the text names finds it. Paths are read from the repository's root.
func TestDocsNameRealPaths(t *testing.T) {
	entries, err := os.ReadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		if e.Name() != ".git" {
			top[e.Name()] = true
		}
	}
	checked := 0
	for _, doc := range proseDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		prose, _ := splitFenced(string(data))
		for _, line := range prose {
			for _, m := range codeSpan.FindAllStringSubmatch(line.text, -1) {
				span := m[1]
				if !repoPath(span, top) {
					continue
				}
				checked++
				full := filepath.Join(repoRoot, filepath.FromSlash(span))
				if strings.Contains(span, "*") {
					if hits, _ := filepath.Glob(full); len(hits) == 0 {
						t.Errorf("%s:%d: `%s` matches no file of the repository", doc, line.n, span)
					}
					continue
				}
				if _, err := os.Stat(full); err != nil {
					t.Errorf("%s:%d: `%s` is not in the repository", doc, line.n, span)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d paths checked: is the path pattern still finding the README's paths?", checked)
	}
}

// TestRepoPathPattern pins which code spans count as paths: the mistakes
// the README once made are caught, option names and commands are not.
func TestRepoPathPattern(t *testing.T) {
	top := map[string]bool{"rules": true, "docs": true, ".ci": true, "README.md": true}
	for _, span := range []string{"RULES.md", "rules/variant_<key>.go", "docs/variants/", ".ci/run", "README.md", "rules/testdata/perft/*.perft"} {
		if !repoPath(span, top) {
			t.Errorf("%q is not taken as a path", span)
		}
	}
	for _, span := range []string{"/rules", "/move e4", "storage.path", "days:0", "Qd2/Bf4", "bot.toml", "http://127.0.0.1:2379", "e8=Q"} {
		if repoPath(span, top) {
			t.Errorf("%q is taken as a path", span)
		}
	}
}

// headingAnchors returns the anchors of a markdown document as GitHub
// makes them: each heading's text without markup, lower-cased, with
// everything but letters, digits, spaces, hyphens and underscores
// dropped and spaces made hyphens (a repeated one gets -1, -2, ...);
// and every explicit <a id="...">.
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	count := map[string]int{}
	prose, _ := splitFenced(doc)
	for _, line := range prose {
		for _, m := range explicitID.FindAllStringSubmatch(line.text, -1) {
			anchors[m[1]] = true
		}
		if !strings.HasPrefix(line.text, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line.text, "#"))
		text = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(text, "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := count[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		count[slug]++
	}
	return anchors
}

// TestDocsLinksResolve checks every relative link of the README and the
// pages of docs/: the file or folder it names exists, read from the
// linking document's folder, and an anchor (#...) into a markdown file is
// one of that file's headings or explicit anchors.
func TestDocsLinksResolve(t *testing.T) {
	checked := 0
	for _, doc := range proseDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		prose, _ := splitFenced(string(data))
		for _, line := range prose {
			// Code spans may hold "](" that is no link.
			text := codeSpan.ReplaceAllString(line.text, "")
			for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, anchor, _ := strings.Cut(target, "#")
				path := filepath.Join(repoRoot, filepath.FromSlash(doc))
				if file != "" {
					path = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", doc, line.n, target, file)
					continue
				}
				if anchor == "" || !strings.HasSuffix(path, ".md") {
					continue
				}
				linked, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !headingAnchors(string(linked))[anchor] {
					t.Errorf("%s:%d: link %q: no heading or anchor #%s in %s", doc, line.n, target, anchor, filepath.ToSlash(path))
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked: is the link pattern still finding the README's links?", checked)
	}
}

// TestHeadingAnchors pins the anchor rule on headings the documents use.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# Top\n## `fairypost perft -variant KEY [-options ...] -depth N`\n## Choosing `leader_ttl`\n" +
		"## Top\n```\n# not a heading\n```\n<a id=\"c19a\"></a>\n")
	for _, want := range []string{"top", "fairypost-perft--variant-key--options---depth-n", "choosing-leader_ttl", "top-1", "c19a"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block made an anchor")
	}
}

// shellWords splits a command line as sh does for the documents' simple
// lines: words separated by spaces, double quotes grouping.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unbalanced quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestDocsAnalyzeExamples runs every "$ fairypost analyze ..." line in
// the code blocks of the README and the pages of docs/, so that every
// move the documents teach is read and played as written. A line may be
// followed by what fairypost prints: the JSON object (the exact output),
// or an error line "fairypost analyze: ..." (the exact error, exit
// status 2). Otherwise the moves must simply be legal.
func TestDocsAnalyzeExamples(t *testing.T) {
	ran := map[string]int{}
	for _, doc := range proseDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		_, code := splitFenced(string(data))
		for i, line := range code {
			cmd, ok := strings.CutPrefix(line.text, "$ fairypost analyze ")
			if !ok {
				continue
			}
			args, err := shellWords(cmd)
			if err != nil {
				t.Errorf("%s:%d: %v", doc, line.n, err)
				continue
			}
			ran[doc]++
			next := ""
			if i+1 < len(code) && code[i+1].n == line.n+1 {
				next = code[i+1].text
			}
			r := run(t, append([]string{"analyze"}, args...)...)
			switch {
			case strings.HasPrefix(next, "fairypost analyze:"):
				if r.code != 2 || strings.TrimSpace(r.stderr) != next {
					t.Errorf("%s:%d: %s\nexit %d, stderr %q; the document shows %q", doc, line.n, line.text, r.code, r.stderr, next)
				}
			case r.code != 0:
				t.Errorf("%s:%d: %s\nexit %d: %s", doc, line.n, line.text, r.code, r.stderr)
			case strings.HasPrefix(next, "{") && strings.TrimSpace(r.stdout) != next:
				t.Errorf("%s:%d: %s\nprints %s\nthe document shows %s", doc, line.n, line.text, r.stdout, next)
			}
		}
	}
	if ran["README.md"] < 15 {
		t.Errorf("the README has %d analyze lines; its move examples are gone?", ran["README.md"])
	}
}

// TestReadmeMovesNearTop checks that a newcomer meets how to write moves
// before anything about running the bot in production, and that the
// README points at the commands that teach them.
func TestReadmeMovesNearTop(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	moves := strings.Index(readme, "\n## How to write moves\n")
	if moves < 0 {
		t.Fatal("the README has no \"How to write moves\" section")
	}
	if n := strings.Count(readme[:moves], "\n"); n > 80 {
		t.Errorf("\"How to write moves\" starts at line %d: keep it near the top", n+1)
	}
	for _, want := range []string{"`/rules variant:KEY`", "`/moves`", "docs/operations.md", "`days:0`", "[Rematch]"} {
		if !strings.Contains(readme, want) {
			t.Errorf("the README does not mention %s", want)
		}
	}
	for _, operations := range []string{"## Running on etcd", "## Sharding", "## Interactions over HTTP", "etcdctl"} {
		if strings.Contains(readme, operations) {
			t.Errorf("the README still holds %q: operations belong in docs/operations.md", operations)
		}
	}
}

// setDiscordSnippet returns the set_discord shell function of
// docs/operations.md.
func setDiscordSnippet(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "set_discord() {\n")
	if start < 0 {
		t.Fatal("docs/operations.md has no set_discord function")
	}
	end := strings.Index(doc[start:], "\n}\n")
	if end < 0 {
		t.Fatal("docs/operations.md: set_discord has no closing brace")
	}
	return doc[start : start+end+3]
}

// TestOperationsSetDiscord runs the documented set_discord function on a
// copy of config.example.toml (which has a [discord] table holding
// shard_id and shard_count already) and on a file with no [discord]
// table, and loads each result with the bot's own configuration reader:
// the shard keys and an HTTP worker's keys must come out as set.
func TestOperationsSetDiscord(t *testing.T) {
	fn := setDiscordSnippet(t)
	example, err := os.ReadFile(filepath.Join(repoRoot, "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	onEtcd := strings.Replace(string(example), "\nbackend = \"bolt\"\n", "\nbackend = \"etcd\"\n", 1)
	if onEtcd == string(example) {
		t.Fatal("config.example.toml has no line backend = \"bolt\" to switch to etcd")
	}
	key := strings.Repeat("ab", 32)
	bases := map[string]string{
		"example":      onEtcd,
		"no-discord":   "[storage]\nbackend = \"etcd\"\n",
		"discord-last": "[storage]\nbackend = \"etcd\"\n\n[discord]\ntoken = \"t\"\nshard_id = 0 # to be replaced\n",
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			basePath := filepath.Join(dir, "bot.toml")
			if err := os.WriteFile(basePath, []byte(base), 0o600); err != nil {
				t.Fatal(err)
			}
			set := func(out string, keys ...string) Config {
				t.Helper()
				script := fn + `set_discord "$@" > "$OUT"` + "\n"
				cmd := exec.Command("sh", append([]string{"-c", script, "sh", basePath}, keys...)...)
				cmd.Env = append(os.Environ(), "OUT="+filepath.Join(dir, out))
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("set_discord: %v: %s", err, msg)
				}
				cfg, err := loadConfig(filepath.Join(dir, out), func(string) string { return "token-from-env" })
				if err != nil {
					written, _ := os.ReadFile(filepath.Join(dir, out))
					t.Fatalf("the file set_discord wrote does not load: %v\n%s", err, written)
				}
				return cfg
			}
			shard := set("shard1.toml", "shard_id = 1", "shard_count = 3")
			if shard.Discord.ShardID != 1 || shard.Discord.ShardCount != 3 {
				t.Errorf("shard file: shard %d of %d, want 1 of 3", shard.Discord.ShardID, shard.Discord.ShardCount)
			}
			if shard.Storage.Backend != "etcd" {
				t.Errorf("shard file: backend %q, the base file's etcd lost", shard.Storage.Backend)
			}
			http := set("http1.toml", `http_listen = "127.0.0.1:8081"`, `public_key = "`+key+`"`, "gateway = false")
			if http.Discord.HTTPListen != "127.0.0.1:8081" || http.Discord.PublicKey != key || http.Discord.Gateway {
				t.Errorf("HTTP worker file: listen %q, key %q, gateway %v", http.Discord.HTTPListen, http.Discord.PublicKey, http.Discord.Gateway)
			}
		})
	}
}

// TestReadmeConsoleTranscript replays the README's console transcript
// (the script given to printf) with the console and checks that the
// lines it shows after "..." are exactly what the console prints from
// that line on, so that the transcript is a real run.
func TestReadmeConsoleTranscript(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, code := splitFenced(string(data))
	start := -1
	for i, line := range code {
		if strings.HasPrefix(line.text, "$ printf '") && strings.Contains(line.text, "| fairypost console") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal("the README shows no console transcript ($ printf '...' | fairypost console ...)")
	}
	cmd := code[start].text
	quoted := strings.TrimPrefix(cmd, "$ printf '")
	script, _, ok := strings.Cut(quoted, "'")
	if !ok {
		t.Fatalf("README.md:%d: unbalanced quote", code[start].n)
	}
	script = strings.ReplaceAll(script, `\n`, "\n")
	var shown []string
	elided := false
	for i := start + 1; i < len(code) && code[i].n == code[i-1].n+1; i++ {
		switch {
		case code[i].text == "...":
			elided = true
		case elided:
			shown = append(shown, code[i].text)
		}
	}
	if len(shown) < 10 {
		t.Fatalf("README.md:%d: the transcript shows %d lines after \"...\"", code[start].n, len(shown))
	}
	dir := t.TempDir()
	images := filepath.Join(dir, "boards")
	r := runIn(t, script, "console", "-db", filepath.Join(dir, "demo.db"), "-images", images)
	if r.code != 0 {
		t.Fatalf("console: exit %d: %s", r.code, r.stderr)
	}
	out := strings.ReplaceAll(r.stdout, images+string(filepath.Separator), "boards/")
	from := strings.Index(out, shown[0]+"\n")
	if from < 0 {
		t.Fatalf("the console never prints %q:\n%s", shown[0], out)
	}
	if got, want := strings.TrimRight(out[from:], "\n"), strings.Join(shown, "\n"); got != want {
		t.Errorf("the README's transcript is not what the console prints:\n--- README\n%s\n--- console\n%s", want, got)
	}
}
