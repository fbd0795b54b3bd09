package discordtest

import (
	"context"
	"fmt"
	"net/http"
)

// ReplayTo posts again, byte for byte with the same headers, what was posted for interaction i, to url:
// a signed request replayed to another worker behind the load balancer than the one that answered it. It
// returns the answer (a bot must refuse it: 401). The copy is not recorded as an answer of i.
func (s *Server) ReplayTo(ctx context.Context, i *Interaction, url string) (Delivery, error) {
	s.mu.Lock()
	hd := i.http
	s.mu.Unlock()
	if hd == nil {
		return Delivery{}, fmt.Errorf("discordtest: interaction %s was not delivered over HTTP", i.ID)
	}
	d := s.postOne(ctx, url, http.MethodPost, hd.header, hd.body)
	return d, d.Err
}
