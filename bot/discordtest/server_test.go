package discordtest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/fairypost/fairypost/bot/discordtest"
)

const (
	guildID   = "100"
	channelID = "200"
	closedID  = "201" // a channel where threads are forbidden
	alice     = "1"
	bob       = "2"
	carol     = "3"
)

// router dispatches interactions to per-test handlers, keyed by command name or custom ID.
type router struct {
	mu       sync.Mutex
	handlers map[string]func(*discordgo.Session, *discordgo.InteractionCreate)
}

func (r *router) set(key string, h func(*discordgo.Session, *discordgo.InteractionCreate)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handlers[key] = h
}

func (r *router) handle(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	var key string
	switch ic.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		key = ic.ApplicationCommandData().Name
	case discordgo.InteractionMessageComponent:
		key = ic.MessageComponentData().CustomID
	}
	r.mu.Lock()
	h := r.handlers[key]
	r.mu.Unlock()
	if h != nil {
		h(s, ic)
	}
}

func commands() []*discordgo.ApplicationCommand {
	return []*discordgo.ApplicationCommand{
		{Name: "echo", Description: "Says it back", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "text", Description: "What to say", Required: true,
				MaxLength: 100},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "times", Description: "How often"},
			{Type: discordgo.ApplicationCommandOptionUser, Name: "to", Description: "Whom to ping"},
		}},
		{Name: "move", Description: "Plays a move", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The move", Required: true,
				Autocomplete: true},
		}},
		{Name: "slow", Description: "Takes its time"},
		{Name: "twice", Description: "Answers twice"},
		{Name: "board", Description: "Shows the board"},
		{Name: "ask", Description: "Posts buttons"},
		{Name: "late", Description: "Follows up"},
		{Name: "pgn", Description: "Sends a file"},
		{Name: "variant", Description: "Has choices", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "key", Description: "Variant", Required: true,
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Chess", Value: "chess"}}},
		}},
	}
}

func restCode(t *testing.T, err error) (int, int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *discordgo.RESTError", err, err)
	}
	if re.Message == nil {
		t.Fatalf("RESTError without a JSON message: %s", re.ResponseBody)
	}
	return re.Response.StatusCode, re.Message.Code
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestFakeWithDiscordgo drives the fake with a real discordgo session; the subtests share it because
// Session.Close sleeps a second.
func TestFakeWithDiscordgo(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddGuild(guildID, "chess club")
	srv.AddChannel(guildID, channelID, "games")
	srv.AddChannel(guildID, closedID, "no-threads")
	srv.ForbidThreads(closedID)
	srv.AddUser(alice, "alice")
	srv.AddUser(bob, "bob")
	srv.AddUser(carol, "carol")

	r := &router{handlers: map[string]func(*discordgo.Session, *discordgo.InteractionCreate){}}
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	s.AddHandler(r.handle)
	rateLimited := make(chan *discordgo.RateLimit, 8)
	s.AddHandler(func(_ *discordgo.Session, rl *discordgo.RateLimit) { rateLimited <- rl })
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()

	t.Run("ready", func(t *testing.T) {
		if s.State.User == nil || s.State.User.ID != srv.BotID() {
			t.Fatalf("State.User = %+v, want the bot %s", s.State.User, srv.BotID())
		}
		if got := s.State.Ready.Application; got == nil || got.ID != srv.ApplicationID() {
			t.Fatalf("READY application = %+v, want %s", got, srv.ApplicationID())
		}
		if err := srv.WaitFor(ctxT(t), func() bool {
			_, err1 := s.State.Channel(channelID) // under the state's lock, unlike reading a *Guild
			_, err2 := s.State.Channel(closedID)
			return err1 == nil && err2 == nil
		}); err != nil {
			t.Fatalf("GUILD_CREATE did not reach the state: %v", err)
		}
		if srv.Identifies() != 1 || srv.Connections() != 1 {
			t.Fatalf("identifies %d connections %d, want 1 and 1", srv.Identifies(), srv.Connections())
		}
	})

	t.Run("commands", func(t *testing.T) {
		if _, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "hi")); err == nil {
			t.Fatal("Slash of an unregistered command succeeded")
		}
		first, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, commands())
		if err != nil {
			t.Fatalf("bulk overwrite: %v", err)
		}
		second, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, commands())
		if err != nil {
			t.Fatalf("second bulk overwrite: %v", err)
		}
		if len(first) != len(commands()) || len(second) != len(first) {
			t.Fatalf("got %d then %d commands, want %d", len(first), len(second), len(commands()))
		}
		for n := range first {
			if first[n].ID == "" || first[n].ID != second[n].ID || first[n].Version != second[n].Version {
				t.Errorf("command %s: id/version %s/%s then %s/%s; an identical overwrite must keep both",
					first[n].Name, first[n].ID, first[n].Version, second[n].ID, second[n].Version)
			}
		}
		if srv.CommandWrites() != 2 || len(srv.Commands(guildID)) != len(first) || len(srv.Commands("")) != 0 {
			t.Fatalf("writes %d, guild commands %d, global %d", srv.CommandWrites(), len(srv.Commands(guildID)),
				len(srv.Commands("")))
		}
		bad := []*discordgo.ApplicationCommand{{Name: "Bad Name", Description: "x"}}
		if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, bad); err == nil {
			t.Fatal("an invalid command name was accepted")
		} else if status, code := restCode(t, err); status != 400 || code != 50035 {
			t.Fatalf("invalid command: %d/%d, want 400/50035", status, code)
		}
		for name, o := range map[string]*discordgo.ApplicationCommandOption{
			"max_length on an integer": {Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "x", MaxLength: 5},
			"max_length over 6000":     {Type: discordgo.ApplicationCommandOptionString, Name: "s", Description: "x", MaxLength: 6001},
			"max_length below 0":       {Type: discordgo.ApplicationCommandOptionString, Name: "s", Description: "x", MaxLength: -1},
		} {
			bad := []*discordgo.ApplicationCommand{{Name: "bad", Description: "x", Options: []*discordgo.ApplicationCommandOption{o}}}
			if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, bad); err == nil {
				t.Fatalf("%s was accepted", name)
			} else if status, code := restCode(t, err); status != 400 || code != 50035 {
				t.Fatalf("%s: %d/%d, want 400/50035", name, status, code)
			}
		}
		if _, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", strings.Repeat("é", 101))); !errors.Is(err, discordtest.ErrTooLong) {
			t.Fatalf("a value past max_length was sent: %v", err)
		}
		if _, err := srv.Slash(alice, channelID, "variant", discordtest.String("key", "checkers")); err == nil {
			t.Fatal("a value outside the option's choices was sent")
		}
		if _, err := srv.Slash(alice, channelID, "echo"); err == nil {
			t.Fatal("a required option was left out")
		}
	})

	t.Run("respond", func(t *testing.T) {
		r.set("echo", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			d := ic.ApplicationCommandData()
			text := d.GetOption("text").StringValue()
			if o := d.GetOption("times"); o != nil {
				text = strings.Repeat(text, int(o.IntValue()))
			}
			if o := d.GetOption("to"); o != nil {
				text += " <@" + o.UserValue(nil).ID + ">"
				if d.Resolved == nil || d.Resolved.Users[o.UserValue(nil).ID] == nil {
					text += " (unresolved)"
				}
			}
			text += " from " + ic.Member.User.Username
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: text},
			})
		})
		ix, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "ab"), discordtest.Int("times", 2),
			discordtest.User("to", bob))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ix.Response(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Elapsed > 3*time.Second {
			t.Fatalf("response %+v", resp)
		}
		m, err := ix.Final(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if want := "abab <@2> from alice"; m.Content != want {
			t.Fatalf("content %q, want %q", m.Content, want)
		}
		if len(m.Mentions) != 1 || m.Mentions[0] != bob || m.InteractionID != ix.ID || m.AuthorID != srv.BotID() {
			t.Fatalf("message %+v", m)
		}
		msgs := srv.Messages(channelID)
		if len(msgs) == 0 || msgs[len(msgs)-1].ID != m.ID {
			t.Fatalf("the response is not the channel's last message: %+v", msgs)
		}
		if ix.Failed() || ix.Acks() != 1 {
			t.Fatalf("failed %v acks %d", ix.Failed(), ix.Acks())
		}
	})

	t.Run("deadline", func(t *testing.T) {
		srv.SetDeadline(150 * time.Millisecond)
		defer srv.SetDeadline(3 * time.Second)
		errc := make(chan error, 1)
		r.set("slow", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			time.Sleep(300 * time.Millisecond)
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "too late"},
			})
		})
		ix, err := srv.Slash(bob, channelID, "slow")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Response(ctxT(t)); !errors.Is(err, discordtest.ErrInteractionFailed) {
			t.Fatalf("Response: %v, want ErrInteractionFailed", err)
		}
		err = <-errc
		if status, code := restCode(t, err); status != 404 || code != 10062 {
			t.Fatalf("late response: %d/%d, want 404/10062", status, code)
		}
		if !ix.Failed() || len(ix.Rejected()) != 1 || ix.Rejected()[0] != 10062 {
			t.Fatalf("failed %v rejected %v", ix.Failed(), ix.Rejected())
		}
	})

	t.Run("double answer", func(t *testing.T) {
		errc := make(chan error, 2)
		r.set("twice", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			for range 2 {
				errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "once", Flags: discordgo.MessageFlagsEphemeral},
				})
			}
		})
		ix, err := srv.Slash(alice, channelID, "twice")
		if err != nil {
			t.Fatal(err)
		}
		if err := <-errc; err != nil {
			t.Fatalf("first answer: %v", err)
		}
		if status, code := restCode(t, <-errc); status != 400 || code != 40060 {
			t.Fatalf("second answer: %d/%d, want 400/40060", status, code)
		}
		m, err := ix.Final(ctxT(t))
		if err != nil || !m.Ephemeral || m.Content != "once" {
			t.Fatalf("final %+v, %v", m, err)
		}
	})

	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7, 0, 255}, 1000)...)

	t.Run("deferred then edit", func(t *testing.T) {
		errc := make(chan error, 2)
		r.set("board", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
			time.Sleep(50 * time.Millisecond)
			text := "your board"
			_, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &text,
				Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}})
			errc <- err
		})
		ix, err := srv.Slash(alice, channelID, "board")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ix.Response(ctxT(t))
		if err != nil || resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
			t.Fatalf("response %+v, %v", resp, err)
		}
		m, err := ix.Final(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
		}
		if m.Content != "your board" || m.Loading || m.Edits != 1 || len(m.Files) != 1 {
			t.Fatalf("final %+v", m)
		}
		if f := m.Files[0]; f.Name != "board.png" || !bytes.Equal(f.Data, png) || f.ContentType != "image/png" {
			t.Fatalf("file %s %s, %d bytes", f.Name, f.ContentType, len(f.Data))
		}
	})

	t.Run("deferred and left hanging", func(t *testing.T) {
		// A process that defers and dies: "thinking…" until someone
		// edits the response with the interaction's token.
		acked := make(chan *discordgo.Interaction, 1)
		r.set("board", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err == nil {
				acked <- ic.Interaction
			}
		})
		direct, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "hi"))
		if err != nil {
			t.Fatal(err)
		}
		ix, err := srv.Slash(alice, channelID, "board")
		if err != nil {
			t.Fatal(err)
		}
		i := <-acked
		if !ix.Deferred() || !ix.Hanging() {
			t.Fatalf("deferred %v hanging %v, want both", ix.Deferred(), ix.Hanging())
		}
		if _, err := direct.Final(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		if direct.Deferred() || direct.Hanging() {
			t.Errorf("a direct answer: deferred %v hanging %v, want neither", direct.Deferred(), direct.Hanging())
		}
		if a, f := direct.Answered(); a.IsZero() || !f.Equal(a) {
			t.Errorf("a direct answer: acknowledged %v, final %v, want the same time", a, f)
		}
		// Another session (another process) finishes it with the token.
		other, err := discordgo.New("Bot test-token")
		if err != nil {
			t.Fatal(err)
		}
		other.Client = srv.HTTPClient()
		text := "finished elsewhere"
		if _, err := other.InteractionResponseEdit(&discordgo.Interaction{AppID: i.AppID, Token: i.Token},
			&discordgo.WebhookEdit{Content: &text}); err != nil {
			t.Fatal(err)
		}
		if ix.Hanging() || !ix.Deferred() {
			t.Errorf("after the edit: hanging %v deferred %v, want deferred only", ix.Hanging(), ix.Deferred())
		}
		if a, f := ix.Answered(); a.IsZero() || f.Before(a) {
			t.Errorf("acknowledged %v, final %v: want the final after the acknowledgement", a, f)
		}
		if m, err := ix.Final(ctxT(t)); err != nil || m.Content != text {
			t.Errorf("final %+v, %v", m, err)
		}
	})

	t.Run("response with a file", func(t *testing.T) {
		r.set("pgn", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "the game",
					Files: []*discordgo.File{{Name: "game.pgn", Reader: strings.NewReader("1. e4 e5 *")}}}})
		})
		ix, err := srv.Slash(alice, channelID, "pgn")
		if err != nil {
			t.Fatal(err)
		}
		m, err := ix.Final(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Files) != 1 || m.Files[0].Name != "game.pgn" || string(m.Files[0].Data) != "1. e4 e5 *" {
			t.Fatalf("files %+v", m.Files)
		}
		mem, err := s.GuildMember(guildID, alice)
		if err != nil || mem.User.Username != "alice" {
			t.Fatalf("member %+v, %v", mem, err)
		}
	})

	t.Run("file upload and download", func(t *testing.T) {
		sent, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Content: "game over",
			Files: []*discordgo.File{{Name: "game.gif", Reader: bytes.NewReader(png)}}})
		if err != nil {
			t.Fatal(err)
		}
		got, found := srv.Message(channelID, sent.ID)
		if !found || len(got.Files) != 1 || !bytes.Equal(got.Files[0].Data, png) || got.Files[0].Name != "game.gif" {
			t.Fatalf("recorded %+v", got)
		}
		if len(sent.Attachments) != 1 || sent.Attachments[0].Size != len(png) {
			t.Fatalf("attachments %+v", sent.Attachments)
		}
		res, err := srv.HTTPClient().Get(sent.Attachments[0].URL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !bytes.Equal(body, png) {
			t.Fatalf("downloaded %d bytes from %s", len(body), sent.Attachments[0].URL)
		}
	})

	t.Run("limits", func(t *testing.T) {
		_, err := s.ChannelMessageSend(channelID, strings.Repeat("x", 2001))
		if status, code := restCode(t, err); status != 400 || code != 50035 {
			t.Fatalf("2001 characters: %d/%d", status, code)
		}
		if _, err := s.ChannelMessageSend(channelID, strings.Repeat("é", 2000)); err != nil {
			t.Fatalf("2000 characters: %v", err)
		}
		row := func(n int, prefix string) discordgo.ActionsRow {
			var cs []discordgo.MessageComponent
			for k := range n {
				cs = append(cs, discordgo.Button{Label: "b", CustomID: fmt.Sprintf("%s%d", prefix, k)})
			}
			return discordgo.ActionsRow{Components: cs}
		}
		cases := map[string][]discordgo.MessageComponent{
			"6 buttons":     {row(6, "a")},
			"6 rows":        {row(1, "a"), row(1, "b"), row(1, "c"), row(1, "d"), row(1, "e"), row(1, "f")},
			"long id":       {discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: strings.Repeat("i", 101)}}}},
			"duplicate ids": {row(2, "a"), row(1, "a")},
		}
		for name, comps := range cases {
			_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Content: name, Components: comps})
			if status, code := restCode(t, err); status != 400 || code != 50035 {
				t.Errorf("%s: %d/%d, want 400/50035", name, status, code)
			}
		}
		okComps := []discordgo.MessageComponent{row(5, "a"), row(5, "b"), row(5, "c"), row(5, "d"), row(5, "e")}
		if _, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Content: "25", Components: okComps}); err != nil {
			t.Fatalf("5x5 buttons: %v", err)
		}
		big := make([]byte, 10<<20+1)
		_, err = s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Files: []*discordgo.File{{Name: "big.png", Reader: bytes.NewReader(big)}}})
		if status, code := restCode(t, err); status != 413 || code != 40005 {
			t.Fatalf("10 MiB + 1: %d/%d", status, code)
		}
		_, err = s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{})
		if status, code := restCode(t, err); status != 400 || code != 50006 {
			t.Fatalf("empty message: %d/%d", status, code)
		}
	})

	t.Run("autocomplete", func(t *testing.T) {
		errc := make(chan error, 2)
		r.set("move", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			if ic.Type != discordgo.InteractionApplicationCommandAutocomplete {
				return
			}
			o := ic.ApplicationCommandData().GetOption("move")
			if !o.Focused {
				errc <- errors.New("the option is not focused")
				return
			}
			var choices []*discordgo.ApplicationCommandOptionChoice
			for k := range 26 {
				v := fmt.Sprintf("%s%d", o.StringValue(), k)
				choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
			}
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: choices}})
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: choices[:25]}})
		})
		ix, err := srv.Autocomplete(bob, channelID, "move", discordtest.Focused("move", "e"))
		if err != nil {
			t.Fatal(err)
		}
		if status, code := restCode(t, <-errc); status != 400 || code != 50035 {
			t.Fatalf("26 choices: %d/%d", status, code)
		}
		if err := <-errc; err != nil {
			t.Fatalf("25 choices: %v", err)
		}
		choices, err := ix.Choices(ctxT(t))
		if err != nil || len(choices) != 25 || choices[0].Value != "e0" {
			t.Fatalf("choices %v, %v", choices, err)
		}
		if _, err := ix.Final(ctxT(t)); !errors.Is(err, discordtest.ErrNoMessage) {
			t.Fatalf("Final of autocomplete: %v", err)
		}
	})

	t.Run("buttons", func(t *testing.T) {
		r.set("ask", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "accept?", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Accept", CustomID: "accept:7:1", Style: discordgo.SuccessButton},
						discordgo.Button{Label: "Decline", CustomID: "decline:7:1", Style: discordgo.DangerButton},
					}}}}})
		})
		r.set("accept:7:1", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "accepted by " + ic.Member.User.ID + " on " + ic.Message.ID,
					Components: []discordgo.MessageComponent{}}})
		})
		r.set("decline:7:1", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredMessageUpdate})
			text := "declined"
			_, _ = s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &text})
		})
		ask := func() discordtest.Message {
			ix, err := srv.Slash(alice, channelID, "ask")
			if err != nil {
				t.Fatal(err)
			}
			m, err := ix.Final(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if b := m.Buttons(); len(b) != 2 || b[0].CustomID != "accept:7:1" || b[1].Style != discordgo.DangerButton {
				t.Fatalf("buttons %+v", b)
			}
			return m
		}
		m := ask()
		if _, err := srv.Click(bob, channelID, m.ID, "nope"); err == nil {
			t.Fatal("a click on a missing button was sent")
		}
		ix, err := srv.Click(bob, channelID, m.ID, "accept:7:1")
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.Final(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != m.ID || got.Content != "accepted by 2 on "+m.ID || len(got.Buttons()) != 0 {
			t.Fatalf("updated message %+v", got)
		}
		m = ask()
		ix, err = srv.Click(bob, channelID, m.ID, "decline:7:1")
		if err != nil {
			t.Fatal(err)
		}
		if got, err = ix.Final(ctxT(t)); err != nil || got.ID != m.ID || got.Content != "declined" {
			t.Fatalf("deferred update %+v, %v", got, err)
		}
	})

	t.Run("followup and token lifetime", func(t *testing.T) {
		errc := make(chan error, 3)
		r.set("late", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			_, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "too early"})
			errc <- err
			errc <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "first"}})
			_, err = s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "second"})
			errc <- err
		})
		ix, err := srv.Slash(carol, channelID, "late")
		if err != nil {
			t.Fatal(err)
		}
		if status, code := restCode(t, <-errc); status != 404 || code != 10015 {
			t.Fatalf("follow-up before the response: %d/%d", status, code)
		}
		for range 2 {
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
		}
		if f := ix.Followups(); len(f) != 1 || f[0].Content != "second" || f[0].InteractionID != ix.ID {
			t.Fatalf("follow-ups %+v", f)
		}
		srv.SetTokenLifetime(time.Nanosecond)
		defer srv.SetTokenLifetime(15 * time.Minute)
		text := "edited"
		_, err = s.InteractionResponseEdit(&discordgo.Interaction{ID: ix.ID, AppID: srv.ApplicationID(),
			Token: ix.Token}, &discordgo.WebhookEdit{Content: &text})
		if status, code := restCode(t, err); status != 401 || code != 50027 {
			t.Fatalf("edit after the token expired: %d/%d", status, code)
		}
	})

	t.Run("blocked DM", func(t *testing.T) {
		srv.BlockDMs(bob)
		ch, err := s.UserChannelCreate(bob)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.ChannelMessageSend(ch.ID, "your turn")
		if status, code := restCode(t, err); status != 403 || code != 50007 {
			t.Fatalf("DM to a blocked user: %d/%d", status, code)
		}
		if len(srv.DMs(bob)) != 0 {
			t.Fatal("a blocked DM was recorded")
		}
		ch2, err := s.UserChannelCreate(alice)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChannelMessageSend(ch2.ID, "your turn"); err != nil {
			t.Fatal(err)
		}
		if dms := srv.DMs(alice); len(dms) != 1 || dms[0].Content != "your turn" || ch2.ID != srv.DMChannel(alice) {
			t.Fatalf("DMs %+v", dms)
		}
		if _, err := s.UserChannelCreate("404"); err == nil {
			t.Fatal("a DM channel with an unknown user was created")
		}
	})

	t.Run("threads", func(t *testing.T) {
		root, err := s.ChannelMessageSend(channelID, "game 7")
		if err != nil {
			t.Fatal(err)
		}
		th, err := s.MessageThreadStartComplex(channelID, root.ID, &discordgo.ThreadStart{Name: "game 7",
			AutoArchiveDuration: 10080})
		if err != nil {
			t.Fatal(err)
		}
		if th.ID != root.ID || !th.IsThread() || th.ParentID != channelID {
			t.Fatalf("thread %+v", th)
		}
		srv.SetArchived(th.ID, true)
		if _, err := srv.Slash(alice, th.ID, "ask"); !errors.Is(err, discordtest.ErrArchivedThread) {
			t.Fatalf("Slash in an archived thread: %v", err)
		}
		if _, err := s.ChannelMessageSend(th.ID, "your move, <@1>"); err != nil {
			t.Fatal(err)
		}
		got, found := srv.Thread(th.ID)
		if !found || got.Archived || got.Unarchives != 1 {
			t.Fatalf("thread after the post %+v", got)
		}
		if ts := srv.Threads(channelID); len(ts) != 1 || ts[0].ID != th.ID {
			t.Fatalf("threads %+v", ts)
		}
		if msgs := srv.Messages(th.ID); len(msgs) != 1 || len(msgs[0].Mentions) != 1 || msgs[0].Mentions[0] != alice {
			t.Fatalf("thread messages %+v", msgs)
		}
		_, err = s.ThreadStart(closedID, "game 8", discordgo.ChannelTypeGuildPublicThread, 1440)
		if status, code := restCode(t, err); status != 403 || code != 50013 {
			t.Fatalf("thread where forbidden: %d/%d", status, code)
		}
	})

	t.Run("rate limit and failures", func(t *testing.T) {
		srv.RateLimit("/messages", 2, 30*time.Millisecond)
		m, err := s.ChannelMessageSend(channelID, "after waiting")
		if err != nil {
			t.Fatalf("discordgo did not retry the 429s: %v", err)
		}
		var statuses []int
		for _, q := range srv.Requests() {
			if q.Method == http.MethodPost && strings.HasSuffix(q.Path, "/channels/"+channelID+"/messages") {
				statuses = append(statuses, q.Status)
			}
		}
		if n := len(statuses); n < 3 || statuses[n-3] != 429 || statuses[n-2] != 429 || statuses[n-1] != 200 {
			t.Fatalf("statuses %v, want ... 429 429 200", statuses)
		}
		if len(rateLimited) != 2 {
			t.Fatalf("%d RateLimit events, want 2", len(rateLimited))
		}
		if got, _ := srv.Message(channelID, m.ID); got.Content != "after waiting" {
			t.Fatalf("message %+v", got)
		}
		srv.FailNext(1)
		_, err = s.ChannelMessageSend(channelID, "fails")
		if status, _ := restCode(t, err); status != 500 {
			t.Fatalf("FailNext: status %d", status)
		}
		if _, err := s.ChannelMessageSend(channelID, "works again"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("dropped gateway resumes", func(t *testing.T) {
		answered := make(chan string, 4)
		r.set("echo", func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			text := ic.ApplicationCommandData().GetOption("text").StringValue()
			answered <- text
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: text}})
		})
		srv.DropConnections()
		// Sent while the bot is away: replayed when it resumes.
		during, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "during"))
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.WaitFor(ctxT(t), func() bool { return srv.Resumes() == 1 && srv.Connections() == 1 }); err != nil {
			t.Fatalf("no resume: resumes %d connections %d", srv.Resumes(), srv.Connections())
		}
		after, err := srv.Slash(alice, channelID, "echo", discordtest.String("text", "after"))
		if err != nil {
			t.Fatal(err)
		}
		for _, ix := range []*discordtest.Interaction{during, after} {
			if _, err := ix.Final(ctxT(t)); err != nil {
				t.Fatalf("interaction %s: %v", ix.Command, err)
			}
		}
		// Handlers run in their own goroutines: the order of the answers is not fixed.
		if got := map[string]bool{<-answered: true, <-answered: true}; !got["during"] || !got["after"] {
			t.Fatalf("answered %v", got)
		}
		if srv.Identifies() != 1 {
			t.Fatalf("identifies %d, want 1 (a resume, not a new session)", srv.Identifies())
		}
	})

	t.Run("closed session cannot resume", func(t *testing.T) {
		// A client that closed with 1000 lost its session: its resume gets op 9 and discordgo identifies again.
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Open(); err != nil {
			t.Fatalf("reopen: %v", err)
		}
		if err := srv.WaitFor(ctxT(t), func() bool { return srv.Identifies() == 2 && srv.Connections() == 1 }); err != nil {
			t.Fatalf("identifies %d connections %d, want 2 and 1", srv.Identifies(), srv.Connections())
		}
		ix, err := srv.Slash(bob, channelID, "echo", discordtest.String("text", "again"))
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ix.Final(ctxT(t)); err != nil || m.Content != "again" {
			t.Fatalf("after re-identify: %+v, %v", m, err)
		}
		if srv.Resumes() != 1 {
			t.Fatalf("resumes %d, want 1", srv.Resumes())
		}
	})
}

func TestWrongTokenIsRefused(t *testing.T) {
	srv := discordtest.New(discordtest.WithToken("right"))
	defer srv.Close()
	s, err := discordgo.New("Bot wrong")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	s.ShouldReconnectOnError = false
	if err := s.Open(); err == nil {
		t.Fatal("Open with a wrong token succeeded")
	}
	if _, err := s.User("@me"); err == nil {
		t.Fatal("GET /users/@me with a wrong token succeeded")
	}
}

func TestInteractionNeedsABot(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	srv.AddUser(alice, "alice")
	if _, err := srv.Slash(alice, channelID, "echo"); !errors.Is(err, discordtest.ErrNoBot) {
		t.Fatalf("Slash without a bot: %v", err)
	}
}

// BenchmarkSlashRoundTrip measures the fake and discordgo alone: a slash command dispatched over the gateway,
// answered by a handler with a message, recorded by the fake. Adapter benchmarks add their own work on top.
func BenchmarkSlashRoundTrip(b *testing.B) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	srv.AddUser(alice, "alice")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		b.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"}})
	})
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), guildID, commands()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		ix, err := srv.Slash(alice, channelID, "slow")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Final(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMaxFileSize checks the configured upload limit: a file one byte over
// it is refused with 413/40005 and nothing is posted; a file of exactly
// the limit is posted.
func TestMaxFileSize(t *testing.T) {
	srv := discordtest.New(discordtest.WithMaxFileSize(1000))
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	send := func(n int) error {
		_, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{Content: "file",
			Files: []*discordgo.File{{Name: "f.gif", Reader: bytes.NewReader(make([]byte, n))}}})
		return err
	}
	if status, code := restCode(t, send(1001)); status != 413 || code != 40005 {
		t.Fatalf("1001 bytes over a 1000-byte limit: %d/%d, want 413/40005", status, code)
	}
	if ms := srv.Messages(channelID); len(ms) != 0 {
		t.Fatalf("a refused message was posted: %+v", ms)
	}
	if err := send(1000); err != nil {
		t.Fatalf("1000 bytes: %v", err)
	}
	if ms := srv.Messages(channelID); len(ms) != 1 || len(ms[0].Files) != 1 || len(ms[0].Files[0].Data) != 1000 {
		t.Fatalf("messages after a 1000-byte file: %+v", ms)
	}
}

// TestThreadDeletion: a thread deleted through discordgo is gone (posting
// there is refused as an unknown channel), listed by DeletedThreads and
// no longer by Threads; a text channel cannot be deleted.
func TestThreadDeletion(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	keep, err := s.ThreadStart(channelID, "Game 1: kept", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatal(err)
	}
	drop, err := s.ThreadStart(channelID, "Game 1: dropped", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelDelete(drop.ID); err != nil {
		t.Fatalf("deleting thread %s: %v", drop.ID, err)
	}
	if _, err := s.ChannelMessageSend(drop.ID, "hello"); err == nil {
		t.Error("posting into a deleted thread succeeded")
	} else if _, code := restCode(t, err); code != 10003 {
		t.Errorf("posting into a deleted thread: code %d, want 10003 (unknown channel)", code)
	}
	if _, err := s.ChannelDelete(drop.ID); err == nil {
		t.Error("deleting a thread twice succeeded")
	}
	if got := srv.Threads(channelID); len(got) != 1 || got[0].ID != keep.ID {
		t.Errorf("threads after the deletion: %+v, want only %s", got, keep.ID)
	}
	if got := srv.DeletedThreads(channelID); len(got) != 1 || got[0].ID != drop.ID || got[0].Name != "Game 1: dropped" {
		t.Errorf("deleted threads: %+v, want %s", got, drop.ID)
	}
	if _, err := s.ChannelDelete(channelID); err == nil {
		t.Error("deleting a text channel succeeded")
	}
}

// TestHoldThreads: with HoldThreads(2), a thread creation waits for the
// second one, so both run together.
func TestHoldThreads(t *testing.T) {
	srv := discordtest.New()
	defer srv.Close()
	srv.AddChannel(guildID, channelID, "games")
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	// Two sessions, as two processes: discordgo sends one request of a
	// route at a time per session.
	other, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	other.Client = srv.HTTPClient()
	srv.HoldThreads(2)
	first := make(chan error, 1)
	go func() {
		_, err := other.ThreadStart(channelID, "first", discordgo.ChannelTypeGuildPublicThread, 60)
		first <- err
	}()
	select {
	case err := <-first:
		t.Fatalf("the first creation went through alone (err %v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := s.ThreadStart(channelID, "second", discordgo.ChannelTypeGuildPublicThread, 60); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Threads(channelID)); n != 2 {
		t.Errorf("%d threads, want 2", n)
	}
}
