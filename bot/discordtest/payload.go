package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// apiError is an error response in Discord's shape: {"code": ..., "message": ..., "errors": ...}.
type apiError struct {
	status  int
	code    int
	message string
	errors  map[string]any // Invalid Form Body details
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %d %s", e.status, e.code, e.message) }

func errUnknown(status, code int, message string) *apiError {
	return &apiError{status: status, code: code, message: message}
}

// formError is a 50035 Invalid Form Body error about the field at a dotted path ("data.components.0.custom_id").
func formError(path, code, message string) *apiError {
	leaf := map[string]any{"_errors": []map[string]string{{"code": code, "message": message}}}
	parts := strings.Split(path, ".")
	node := leaf
	for i := len(parts) - 1; i > 0; i-- {
		node = map[string]any{parts[i]: node}
	}
	return &apiError{status: http.StatusBadRequest, code: 50035, message: "Invalid Form Body",
		errors: map[string]any{parts[0]: node}}
}

var (
	errUnknownChannel     = errUnknown(http.StatusNotFound, 10003, "Unknown Channel")
	errUnknownMessage     = errUnknown(http.StatusNotFound, 10008, "Unknown Message")
	errUnknownWebhook     = errUnknown(http.StatusNotFound, 10015, "Unknown Webhook")
	errUnknownInteraction = errUnknown(http.StatusNotFound, 10062, "Unknown interaction")
	errAlreadyAcked       = errUnknown(http.StatusBadRequest, 40060, "Interaction has already been acknowledged")
	errCannotDM           = errUnknown(http.StatusForbidden, 50007, "Cannot send messages to this user")
	errMissingPermissions = errUnknown(http.StatusForbidden, 50013, "Missing Permissions")
	errEmptyMessage       = errUnknown(http.StatusBadRequest, 50006, "Cannot send an empty message")
	errWrongChannelType   = errUnknown(http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
	errInvalidToken       = errUnknown(http.StatusUnauthorized, 50027, "Invalid Webhook Token")
	errInvalidRecipient   = errUnknown(http.StatusBadRequest, 50033, "Invalid Recipient(s)")
	errTooLarge           = errUnknown(http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
	errNotAuthor          = errUnknown(http.StatusForbidden, 50005, "Cannot edit a message authored by another user")
	errNotOwnApplication  = errUnknown(http.StatusForbidden, 20012,
		"You are not authorized to perform this action on this application")
	errNotFound = errUnknown(http.StatusNotFound, 0, "404: Not Found")
	errBadJSON  = errUnknown(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
)

// readBody returns the JSON payload of a request and its files: either the whole body (application/json) or,
// for multipart/form-data, the payload_json part and the files[n] parts in index order. A file over maxFile
// bytes is refused with 413, code 40005.
func readBody(r *http.Request, maxFile int) (json.RawMessage, []File, *apiError) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, nil, errBadJSON
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, nil, nil
		}
		if !json.Valid(b) {
			return nil, nil, errBadJSON
		}
		return b, nil, nil
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var payload json.RawMessage
	type indexed struct {
		n int
		f File
	}
	var files []indexed
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, errBadJSON
		}
		name := p.FormName()
		data, err := io.ReadAll(io.LimitReader(p, int64(max(maxFile, maxFileSize))+1))
		if err != nil {
			return nil, nil, errBadJSON
		}
		switch {
		case name == "payload_json":
			if !json.Valid(data) {
				return nil, nil, errBadJSON
			}
			payload = data
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil {
				return nil, nil, formError(name, "BASE_TYPE_INVALID", "Invalid file index.")
			}
			if len(data) > maxFile {
				return nil, nil, errTooLarge
			}
			files = append(files, indexed{n, File{Name: p.FileName(), ContentType: p.Header.Get("Content-Type"),
				Data: data}})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].n < files[j].n })
	out := make([]File, len(files))
	for i, f := range files {
		out[i] = f.f
	}
	return payload, out, nil
}

// messagePayload is the body of a message create or edit, an interaction response's data, or a webhook post.
type messagePayload struct {
	Content         *string                           `json:"content"`
	Embeds          json.RawMessage                   `json:"embeds"`
	Components      json.RawMessage                   `json:"components"`
	Attachments     json.RawMessage                   `json:"attachments"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	StickerIDs      []string                          `json:"sticker_ids"`
	Choices         json.RawMessage                   `json:"choices"`
	Nonce           json.RawMessage                   `json:"nonce"`         // message creation only
	EnforceNonce    bool                              `json:"enforce_nonce"` // message creation only
}

// present reports whether a raw field was sent with a non-null value.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

// decoded is a validated message payload.
type decoded struct {
	p          messagePayload
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	keep       []string // attachment IDs listed in "attachments" (edits)
}

// rawComponent is the part of a component the limits concern.
type rawComponent struct {
	Type       discordgo.ComponentType `json:"type"`
	CustomID   *string                 `json:"custom_id"`
	URL        string                  `json:"url"`
	Label      string                  `json:"label"`
	Style      int                     `json:"style"`
	Options    []json.RawMessage       `json:"options"`
	Components []rawComponent          `json:"components"`
}

// decodeMessage parses and validates a message payload; prefix is the path of the payload in the request
// body ("" or "data.") for error details.
// readMessage reads a request whose body is a message (JSON or multipart
// with files) and decodes it; wantContent refuses an empty message
// (Discord's 50006) as creating one does. Files over maxFile bytes are refused (readBody).
func readMessage(r *http.Request, maxFile int, wantContent bool) (*decoded, []File, *apiError) {
	raw, files, aerr := readBody(r, maxFile)
	if aerr != nil {
		return nil, nil, aerr
	}
	d, aerr := decodeMessage(raw, "")
	if aerr != nil {
		return nil, nil, aerr
	}
	if wantContent && d.empty(files) {
		return nil, nil, errEmptyMessage
	}
	return d, files, nil
}

func decodeMessage(raw json.RawMessage, prefix string) (*decoded, *apiError) {
	d := &decoded{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &d.p); err != nil {
			return nil, formError(prefix+"content", "BASE_TYPE_INVALID", "Invalid payload: "+err.Error())
		}
	}
	if d.p.Content != nil && utf8.RuneCountInString(*d.p.Content) > maxContent {
		return nil, formError(prefix+"content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	if present(d.p.Embeds) {
		if err := json.Unmarshal(d.p.Embeds, &d.embeds); err != nil {
			return nil, formError(prefix+"embeds", "BASE_TYPE_INVALID", "Invalid embeds.")
		}
		if len(d.embeds) > 10 {
			return nil, formError(prefix+"embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
		}
	}
	if present(d.p.Components) {
		if e := checkComponents(d.p.Components, prefix+"components"); e != nil {
			return nil, e
		}
		var m discordgo.Message
		if err := json.Unmarshal([]byte(`{"components":`+string(d.p.Components)+`}`), &m); err != nil {
			return nil, formError(prefix+"components", "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
		}
		d.components = m.Components
	}
	if present(d.p.Attachments) {
		var atts []struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(d.p.Attachments, &atts); err != nil {
			return nil, formError(prefix+"attachments", "BASE_TYPE_INVALID", "Invalid attachments.")
		}
		d.keep = []string{}
		for _, a := range atts {
			var id string
			if json.Unmarshal(a.ID, &id) != nil {
				id = string(a.ID)
			}
			d.keep = append(d.keep, id)
		}
	}
	return d, nil
}

// checkComponents enforces Discord's layout limits on message components.
func checkComponents(raw json.RawMessage, path string) *apiError {
	var rows []rawComponent
	if err := json.Unmarshal(raw, &rows); err != nil {
		return formError(path, "BASE_TYPE_INVALID", "Invalid components.")
	}
	if len(rows) > maxRows {
		return formError(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
	}
	seen := map[string]bool{}
	for i, row := range rows {
		rp := fmt.Sprintf("%s.%d", path, i)
		if row.Type != discordgo.ActionsRowComponent {
			return formError(rp+".type", "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
		}
		if len(row.Components) < 1 || len(row.Components) > maxRowButtons {
			return formError(rp+".components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		for j, c := range row.Components {
			cp := fmt.Sprintf("%s.components.%d", rp, j)
			switch c.Type {
			case discordgo.ButtonComponent:
				if len(row.Components) > 1 && hasSelect(row.Components) {
					return formError(cp, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
						"The specified component exceeds the maximum width")
				}
				if utf8.RuneCountInString(c.Label) > 80 {
					return formError(cp+".label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
				}
				if c.Style == int(discordgo.LinkButton) {
					if c.URL == "" {
						return formError(cp+".url", "BASE_TYPE_REQUIRED", "This field is required")
					}
					continue
				}
			case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
				discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
				if len(row.Components) > 1 {
					return formError(cp, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
						"The specified component exceeds the maximum width")
				}
				if len(c.Options) > maxSelectOptions {
					return formError(cp+".options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
				}
			default:
				return formError(cp+".type", "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
			}
			if c.CustomID == nil {
				return formError(cp+".custom_id", "BASE_TYPE_REQUIRED", "This field is required")
			}
			if n := utf8.RuneCountInString(*c.CustomID); n < 1 || n > maxCustomID {
				return formError(cp+".custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
			if seen[*c.CustomID] {
				return formError(cp+".custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
					"Component custom id cannot be duplicated")
			}
			seen[*c.CustomID] = true
		}
	}
	return nil
}

func hasSelect(cs []rawComponent) bool {
	for _, c := range cs {
		if c.Type != discordgo.ButtonComponent {
			return true
		}
	}
	return false
}

// decodeChoices parses and validates autocomplete choices.
func decodeChoices(raw json.RawMessage, path string) ([]*discordgo.ApplicationCommandOptionChoice, *apiError) {
	var choices []*discordgo.ApplicationCommandOptionChoice
	if present(raw) {
		if err := json.Unmarshal(raw, &choices); err != nil {
			return nil, formError(path, "BASE_TYPE_INVALID", "Invalid choices.")
		}
	}
	if len(choices) > maxChoices {
		return nil, formError(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	for i, c := range choices {
		cp := fmt.Sprintf("%s.%d", path, i)
		if n := utf8.RuneCountInString(c.Name); n < 1 || n > 100 {
			return nil, formError(cp+".name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		switch v := c.Value.(type) {
		case string:
			if utf8.RuneCountInString(v) > 100 {
				return nil, formError(cp+".value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
			}
		case float64:
		default:
			return nil, formError(cp+".value", "BASE_TYPE_REQUIRED", "This field is required")
		}
	}
	return choices, nil
}

// empty reports whether a new message would have nothing to show.
func (d *decoded) empty(files []File) bool {
	return (d.p.Content == nil || *d.p.Content == "") && len(d.embeds) == 0 && len(files) == 0 &&
		len(d.components) == 0 && len(d.p.StickerIDs) == 0
}
