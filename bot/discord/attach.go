package discord

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/command"
)

// tooLarge reports whether err is Discord refusing a request because its
// body is too large (HTTP 413, code 40005): an attachment over the upload
// limit.
func tooLarge(err error) bool {
	code, status := restCode(err)
	return status == http.StatusRequestEntityTooLarge || code == discordgo.ErrCodeRequestEntityTooLarge
}

// sendShrinking calls send with rep and, while Discord refuses it as too
// large, calls it again without rep's largest attachment, adding a line
// that says which file was left out: a message is never lost because of
// an attachment. It returns the error of the last call (nil once one
// succeeded). send is called at most once more than rep has files.
func (b *Bot) sendShrinking(rep command.Reply, send func(command.Reply) error) error {
	for {
		err := send(rep)
		if err == nil || len(rep.Files) == 0 || !tooLarge(err) {
			return err
		}
		k := 0
		for j, f := range rep.Files {
			if len(f.Data) > len(rep.Files[k].Data) {
				k = j
			}
		}
		left := rep.Files[k]
		b.log.Warn("discord: attachment refused as too large; sending without it", "file", left.Name,
			"bytes", len(left.Data), "err", err)
		rep.Files = slices.Delete(slices.Clone(rep.Files), k, k+1)
		rep.Text += fmt.Sprintf("\n(The attachment %s was too large for Discord and was left out.)", left.Name)
	}
}
