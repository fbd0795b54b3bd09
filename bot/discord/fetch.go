package discord

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/fairypost/fairypost/bot/command"
	"github.com/fairypost/fairypost/rules/variantsini"
)

// maxAttachment is the most bytes of an attached file the bot reads (the
// variants.ini reader's limit).
const maxAttachment = variantsini.MaxTextBytes

// fetchAttachments replaces the URL commandRequest left in each
// attachment option of req with the file's text, read with the
// session's HTTP client; a file too large or unreadable is an error
// worded for the user.
func (b *Bot) fetchAttachments(ctx context.Context, req *command.Request) error {
	for _, sp := range b.h.Specs() {
		if sp.Name != req.Name {
			continue
		}
		for _, o := range sp.Options {
			url := req.Options[o.Name]
			if o.Kind != command.OptionAttachment || url == "" {
				continue
			}
			text, err := readAttachment(ctx, b.s.Client, url)
			if err != nil {
				return err
			}
			req.Options[o.Name] = text
		}
	}
	return nil
}

// readAttachment reads the file at url with client, at most maxAttachment
// bytes.
func readAttachment(ctx context.Context, client *http.Client, url string) (string, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", fmt.Errorf("The attached file cannot be read: %v", err)
	}
	resp, err := client.Do(hr)
	if err != nil {
		return "", fmt.Errorf("The attached file could not be downloaded: try again.")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("The attached file could not be downloaded (HTTP %d): try again.", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAttachment+1))
	if err != nil {
		return "", fmt.Errorf("The attached file could not be downloaded: try again.")
	}
	if len(data) > maxAttachment {
		return "", fmt.Errorf("The attached file is larger than %d KB: attach a smaller one.", maxAttachment>>10)
	}
	return string(data), nil
}
