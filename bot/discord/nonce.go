package discord

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// maxNonce is the longest nonce Discord accepts, in characters.
const maxNonce = 25

// Where a message goes, part of its nonce: a notification becomes a DM,
// a post in the game's thread or channel, or both (a DM and the thread's
// copy), never two posts in one channel.
const (
	nonceDM     = 'd' // a notification's DM to its user
	noncePost   = 'p' // a notification's post in the thread or channel
	nonceAnswer = 'a' // the post into the game's thread after an interaction (publish)
	nonceDigest = 'g' // a digest's DM; its ID is its first held notification's
)

// nonceFor returns the nonce of the message sent for the event id (a
// notification's ID, or an interaction's) at place, one of the nonce*
// letters: "fp" + place + id in base 36, at most 16 characters. It
// depends on nothing else, so sending the same notification again — a
// deliverer that crashed after sending and before marking it done, or
// another process taking over the deliveries — carries the same nonce,
// and Discord returns the first message instead of posting a second.
func nonceFor(place byte, id uint64) string {
	return "fp" + string(place) + strconv.FormatUint(id, 36)
}

// Interaction responses, their edits and follow-ups (interact.go) carry
// no nonce and need none: Discord accepts one response per interaction
// (a second is refused with 40060), edits change that one message, and
// follow-ups go through the interaction's webhook, whose requests have
// no nonce field.

// nonceMessage is a message create request carrying a nonce with
// enforce_nonce, which discordgo's MessageSend (v0.29) cannot: Discord
// then creates no second message with the same nonce from the same
// author (in the same channel) within a few minutes, and answers with
// the existing one.
type nonceMessage struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// sendWithNonce posts data into channelID as ChannelMessageSendComplex
// does (JSON, or multipart with the files), with nonce and
// enforce_nonce set; discordgo's deprecated File and Embed fields are not
// read (messageSend never sets them). nonce must have 1 to maxNonce
// characters.
func (b *Bot) sendWithNonce(ctx context.Context, channelID string, data *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	if len(nonce) == 0 || len(nonce) > maxNonce {
		return nil, errors.New("discord: a nonce must have 1 to 25 characters")
	}
	for _, e := range data.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	req := nonceMessage{MessageSend: data, Nonce: nonce, EnforceNonce: true}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var resp []byte
	var err error
	if len(data.Files) > 0 {
		contentType, body, encErr := discordgo.MultipartBodyWithJSON(req, data.Files)
		if encErr != nil {
			return nil, encErr
		}
		resp, err = b.s.RequestRaw("POST", endpoint, contentType, body, endpoint, 0, discordgo.WithContext(ctx))
	} else {
		resp, err = b.s.RequestWithBucketID("POST", endpoint, req, endpoint, discordgo.WithContext(ctx))
	}
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(resp, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
