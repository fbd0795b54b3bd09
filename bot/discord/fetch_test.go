package discord

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestAttachmentOption: an attachment option arrives as its URL (from
// the resolved attachments), and readAttachment reads the file there,
// refusing one larger than maxAttachment and a failed download.
func TestAttachmentOption(t *testing.T) {
	const ini = "[mine:chess]\nking = -\ncommoner = k\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mine.ini":
			w.Write([]byte(ini))
		case "/big.ini":
			w.Write([]byte(strings.Repeat("x", maxAttachment+1)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	raw := `{"id":"1","type":2,"guild_id":"g","channel_id":"c","member":{"user":{"id":"u1"}},
	"data":{"name":"variant","type":1,"options":[{"name":"action","type":3,"value":"define"},{"name":"file","type":11,"value":"77"}],
		"resolved":{"attachments":{"77":{"id":"77","filename":"mine.ini","url":"` + srv.URL + `/mine.ini"}}}}}`
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	req, _ := commandRequest(&i)
	if req.Options["file"] != srv.URL+"/mine.ini" {
		t.Fatalf("file option: %q, want the attachment's URL", req.Options["file"])
	}
	text, err := readAttachment(t.Context(), srv.Client(), req.Options["file"])
	if err != nil || text != ini {
		t.Errorf("read %q, %v; want the file", text, err)
	}
	if _, err := readAttachment(t.Context(), srv.Client(), srv.URL+"/big.ini"); err == nil || !strings.Contains(err.Error(), "KB") {
		t.Errorf("a file too large: %v", err)
	}
	if _, err := readAttachment(t.Context(), srv.Client(), srv.URL+"/gone.ini"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a missing file: %v", err)
	}
}
