package main

import (
	"context"
	"log/slog"

	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/bot/variants"
)

// serverVariants returns the feature of the variants the servers define,
// over the stores' game store (both backends keep them), with every
// stored definition registered again in svc's registry; nil when the
// stores keep none. A stored definition that no longer compiles is
// logged and left out: the others serve.
func serverVariants(ctx context.Context, svc *gameplay.Service, st gameplay.Stores, log *slog.Logger) *variants.Service {
	store, ok := st.Games.(bot.VariantStore)
	if !ok {
		return nil
	}
	vs := variants.New(store, svc)
	if err := vs.Load(ctx); err != nil {
		log.Warn("variants: some stored definitions were not loaded", "err", err)
	}
	return vs
}
