package web

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"

	"github.com/fairypost/fairypost/rules"
)

// rulesData is what the rules page of a variant reads: all of it from the
// variant's definition (its help and its pieces), as /rules tells it.
type rulesData struct {
	V        *rules.Variant
	CSS      string
	Pieces   []pieceRule
	FullPage string // the rules page's path in fairypost's repository
}

// pieceRule is one piece of the variant with its movement in words.
type pieceRule struct {
	Letter, Name, Moves string
}

// serveRules answers the rules page of the variant key: the rules in
// short, how to write its special moves, its marks, its options and its
// pieces. 404 for a key the registry does not know.
func (s *Server) serveRules(w http.ResponseWriter, r *http.Request, key string) {
	v := s.svc.Rules().Default(key)
	if v == nil {
		plain(w, http.StatusNotFound, "There is no such variant.")
		return
	}
	d := rulesData{V: v, CSS: s.css, FullPage: v.RulesPage()}
	for _, p := range v.Pieces {
		d.Pieces = append(d.Pieces, pieceRule{Letter: string(rune(p.Letter)), Name: p.Name, Moves: rules.Describe(p)})
	}
	var buf bytes.Buffer
	if err := rulesTemplate.Execute(&buf, d); err != nil {
		s.storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=3600")
	write(w, r, buf.Bytes())
}

//go:embed assets/rules.html
var rulesHTML string

// rulesTemplate is a variant's rules page.
var rulesTemplate = template.Must(template.New("rules").Parse(rulesHTML))
