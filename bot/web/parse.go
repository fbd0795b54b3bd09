package web

import (
	"net/url"
	"strconv"
	"strings"
)

// Kinds of request.
const (
	kindPage  = "page"  // /g/ID/TOKEN
	kindBoard = "board" // /g/ID/TOKEN/board.png
	kindGIF   = "gif"   // /g/ID/TOKEN/game.gif
	kindPGN   = "pgn"   // /g/ID/TOKEN/game.pgn
	kindState = "state" // /g/ID/TOKEN/state
	kindAlts  = "alts"  // /g/ID/TOKEN/alts.json
	kindAsset = "asset" // /assets/NAME
	kindRules = "rules" // /rules/KEY
)

// request is a request's path and query, read and checked.
type request struct {
	kind  string
	id    uint64
	token string
	name  string // the asset's name, the variant's key
	// ply is the position asked for (?ply=N); -1 when none is.
	ply  int
	flip bool // ?flip=1: Black at the bottom
	// version is the record version the address was made for (?v=N),
	// 0 when none is: an image or alt list asked for another version is
	// answered with the current one, not cached for ever.
	version uint64
}

// maxPly is the largest ?ply= read; a larger one is refused (no game is
// that long).
const maxPly = 99999

// parseRequest reads the escaped path and raw query of a request. It
// returns the HTTP status to answer instead (400 for a query that cannot
// be read, 404 for a path that names nothing), 0 when the request is
// well formed. It reads no store: what it accepts is only well formed.
func parseRequest(path, rawQuery string) (request, int) {
	req := request{ply: -1}
	if len(path) > maxPath {
		return req, 404
	}
	if len(rawQuery) > maxQuery {
		return req, 400
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if !strings.HasPrefix(path, "/") {
		return req, 404
	}
	switch {
	case len(parts) == 1 && parts[0] == "favicon.ico":
		req.kind, req.name = kindAsset, parts[0]
		return req, checkQuery(rawQuery, nil)
	case len(parts) == 2 && parts[0] == "assets" && validName(parts[1]):
		req.kind, req.name = kindAsset, parts[1]
		return req, checkQuery(rawQuery, nil)
	case len(parts) == 2 && parts[0] == "rules" && validName(parts[1]):
		req.kind, req.name = kindRules, parts[1]
		return req, checkQuery(rawQuery, nil)
	case (len(parts) == 3 || len(parts) == 4) && parts[0] == "g":
	default:
		return req, 404
	}
	id, ok := parseUint(parts[1], 20)
	if !ok || id == 0 || len(parts[2]) != TokenLength {
		return req, 404
	}
	req.id, req.token = id, parts[2]
	allowed := map[string]bool{}
	switch {
	case len(parts) == 3:
		req.kind = kindPage
		allowed = map[string]bool{"ply": true, "flip": true}
	case parts[3] == "board.png":
		req.kind = kindBoard
		allowed = map[string]bool{"ply": true, "flip": true, "v": true}
	case parts[3] == "game.gif":
		req.kind = kindGIF
		allowed = map[string]bool{"flip": true}
	case parts[3] == "game.pgn":
		req.kind = kindPGN
	case parts[3] == "state":
		req.kind = kindState
	case parts[3] == "alts.json":
		req.kind = kindAlts
		allowed = map[string]bool{"v": true}
	default:
		return req, 404
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return req, 400
	}
	for k, vs := range q {
		if !allowed[k] || len(vs) != 1 {
			return req, 400
		}
		v := vs[0]
		switch k {
		case "ply":
			n, ok := parseUint(v, 5)
			if !ok || n > maxPly {
				return req, 400
			}
			req.ply = int(n)
		case "flip":
			switch v {
			case "0":
			case "1":
				req.flip = true
			default:
				return req, 400
			}
		case "v":
			n, ok := parseUint(v, 20)
			if !ok {
				return req, 400
			}
			req.version = n
		}
	}
	return req, 0
}

// checkQuery returns 400 for a query with a parameter not allowed.
func checkQuery(rawQuery string, allowed map[string]bool) int {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return 400
	}
	for k := range q {
		if !allowed[k] {
			return 400
		}
	}
	return 0
}

// parseUint reads 1 to digits decimal digits, nothing else (no sign, no
// spaces).
func parseUint(s string, digits int) (uint64, bool) {
	if s == "" || len(s) > digits {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// validName reports whether s may be an asset's name or a variant's key:
// 1 to 64 lowercase letters, digits, '.', '-' or '_'.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
