package computer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/fairypost/fairypost/ai"
	"github.com/fairypost/fairypost/bot"
	"github.com/fairypost/fairypost/bot/gameplay"
	"github.com/fairypost/fairypost/rules"
)

// MoveLimit bounds the time of one computer move at any level
// (the top level searches ai.DefaultMoveTime; node budgets take far less
// on these machines): a search still running then plays its best move.
const MoveLimit = 10 * time.Second

// Runner plays the computer player's turns (gameplay.Service.ComputerID)
// off the interaction path: a human move that hands the computer the turn
// wakes it (gameplay.Service.OnComputerGame) and a bounded pool of workers searches
// and plays, each move stored through gameplay.Service.Move with the version the
// search started from, so a game changed meanwhile is looked at again and
// nothing is played twice. It also answers its opponents: takebacks are
// accepted, draw offers accepted when the search sees the computer no
// better than level, declined otherwise, and with ResignLost a game the
// search sees lost by force is resigned. It offers a draw itself as Draws
// says. A restart resumes every game where the computer is to act (Run
// scans them).
type Runner struct {
	svc     *gameplay.Service
	log     *slog.Logger
	workers int
	// ResignLost resigns a game in which the search finds a forced loss
	// (a mate or an end of the variant's rules against the computer)
	// instead of playing it out.
	ResignLost bool
	// Draws is when the computer offers a draw itself (see DrawOffers);
	// DefaultDrawOffers unless changed before Run; the zero value never
	// offers.
	Draws DrawOffers
	// Poke, when set, is called after each action the computer stored
	// (a move, an offer, an answer) from Run's workers, so that its
	// notifications are delivered at once (a Deliverer's Poke).
	Poke func()

	mu      sync.Mutex
	serving bool               // Run is running: wakes are queued
	even    map[uint64]evenRun // per game: the computer's even turns in a row (see DrawOffers)
	queued  map[uint64]bool    // in the queue, not yet taken by a worker
	running map[uint64]bool    // being played now: a wake marks it again
	again   map[uint64]bool
	queue   chan uint64
}

// NewRunner returns a runner of svc's computer player with
// workers searches at most at once (at least 1), and registers with svc
// its wake-up after every game update (gameplay.Service.OnComputerGame): make it
// while svc is built, before it serves.
func NewRunner(svc *gameplay.Service, workers int, log *slog.Logger) *Runner {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Runner{svc: svc, log: log, workers: max(workers, 1), ResignLost: true, Draws: DefaultDrawOffers(),
		even: map[uint64]evenRun{}, queued: map[uint64]bool{}, running: map[uint64]bool{}, again: map[uint64]bool{}, queue: make(chan uint64, 4096)}
	svc.OnComputerGame(r.Wake)
	return r
}

// Wake asks for game id to be looked at: the computer's turn or choice,
// or its opponent's offer or request. Cheap and never blocks; a game
// already queued is not queued twice. Nothing while Run is not running
// (Run scans every game when it starts).
func (r *Runner) Wake(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.serving {
		return
	}
	if r.running[id] {
		r.again[id] = true
		return
	}
	if r.queued[id] {
		return
	}
	select {
	case r.queue <- id:
		r.queued[id] = true
	default:
		r.log.Warn("computer: queue full; the game waits for the next scan", "game", id)
	}
}

// Run plays until ctx is done: it turns the wake-up on, queues every
// game the computer has to act in, and runs the workers. It returns nil
// when ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	r.setServing(true)
	defer r.setServing(false)
	if err := r.Scan(ctx); err != nil {
		switch {
		case ctx.Err() != nil: // stopped, or no longer the leader: not a failure
			r.log.Debug("computer: scan stopped", "err", err)
		case bot.Unanswered(err):
			r.log.Warn("computer: scanning its games: the store did not answer", "err", err)
		default:
			r.log.Error("computer: scanning its games", "err", err)
		}
	}
	var wg sync.WaitGroup
	for range r.workers {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case id := <-r.queue:
					r.take(ctx, id)
				}
			}
		})
	}
	wg.Wait()
	return nil
}

// setServing turns the wake-up on or off.
func (r *Runner) setServing(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.serving = on
}

// PlayPending does, here and now, everything the computer has to do in
// its games, again and again while something changes (at most rounds
// times over): a console in script mode calls it after each line so that
// the computer's answers print in order. It returns the first error.
func (r *Runner) PlayPending(ctx context.Context, rounds int) error {
	me := r.svc.ComputerID()
	if me == "" {
		return nil
	}
	for range rounds {
		games, err := r.games(ctx, me)
		if err != nil {
			return err
		}
		acted := false
		for _, g := range games {
			did, err := r.Step(ctx, g.ID)
			if err != nil && bot.ErrorCode(err) != bot.ECONFLICT {
				return err
			}
			acted = acted || did || err != nil
		}
		if !acted {
			return nil
		}
	}
	return nil
}

// Scan queues every ongoing game of the computer player.
func (r *Runner) Scan(ctx context.Context) error {
	me := r.svc.ComputerID()
	if me == "" {
		return nil
	}
	games, err := r.games(ctx, me)
	if err != nil {
		return err
	}
	for _, g := range games {
		r.Wake(g.ID)
	}
	return nil
}

// take plays game id for the computer, recovering a panic (logged with
// the game), and queues it again when it was woken meanwhile.
func (r *Runner) take(ctx context.Context, id uint64) {
	r.mu.Lock()
	delete(r.queued, id)
	r.running[id] = true
	r.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			r.log.Error("computer: panic", "game", id, "panic", v, "stack", string(debug.Stack()))
		}
		r.mu.Lock()
		delete(r.running, id)
		again := r.again[id]
		delete(r.again, id)
		r.mu.Unlock()
		if again {
			r.Wake(id)
		}
	}()
	for range 3 { // a conflict means the game changed: look again
		acted, err := r.Step(ctx, id)
		if (acted || err != nil) && r.Poke != nil {
			r.Poke() // a declined offer, say, was stored before the conflict
		}
		if bot.ErrorCode(err) != bot.ECONFLICT {
			if err != nil && !errors.Is(err, context.Canceled) {
				r.log.Warn("computer: could not act", "game", id, "err", err)
			}
			return
		}
	}
}

// Step does what the computer has to do in game id now, if anything: a
// takeback to accept, a draw offer to answer, its pre-game choice, or its
// move (or resignation) followed, when Draws says so, by its own draw
// offer, and reports whether it did something. Errors
// are the service's; bot.ECONFLICT means the game changed since it was read.
func (r *Runner) Step(ctx context.Context, id uint64) (bool, error) {
	err := r.step(ctx, id)
	if errors.Is(err, errNothingToDo) {
		return false, nil
	}
	return err == nil, err
}

// games returns the ongoing games of the computer, me, by ID.
func (r *Runner) games(ctx context.Context, me string) ([]*bot.Game, error) {
	games, err := r.svc.Views().ActiveGames(ctx, me)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(games, func(a, b *bot.Game) int { return cmp.Compare(a.ID, b.ID) })
	return games, nil
}

// userToAct returns the user ID of the player of g playing c.
func userToAct(g *bot.Game, c rules.Color) string {
	switch c {
	case rules.White:
		return g.White
	case rules.Black:
		return g.Black
	}
	return ""
}

// errNothingToDo is step's answer when the computer has nothing to do.
var errNothingToDo = errors.New("nothing to do")

func (r *Runner) step(ctx context.Context, id uint64) error {
	s := r.svc
	me := s.ComputerID()
	g, err := s.Views().Game(ctx, id)
	if err != nil {
		return err
	}
	if me == "" || !g.Ongoing() || !g.IsPlayer(me) {
		r.forget(id)
		return errNothingToDo
	}
	switch {
	case g.Takeback != "" && g.Takeback != me:
		_, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptTakeback, GameID: g.ID, Version: g.Version, UserID: me})
		return err
	case g.Status == bot.GameSetup && g.ToAct == me:
		choice := "white"
		if g.Setup != nil && g.Setup.Army != "" {
			choice = "me"
		}
		_, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActChoose, GameID: g.ID, Version: g.Version, UserID: me, Choice: choice})
		return err
	}
	if (g.DrawOffer == "" || g.DrawOffer == me) && g.ToAct != me {
		return errNothingToDo // its opponent's turn, with no offer of theirs to answer
	}
	rg, err := s.Views().ReplayRecord(g)
	if err != nil {
		return err
	}
	pos := rg.Position()
	res, err := r.search(ctx, g, rg)
	if errors.Is(err, ai.ErrNoMoves) {
		return errNothingToDo // the game is over in the position; the service says so
	}
	if err != nil {
		return err
	}
	// The score is for the player to act in pos: the computer's when it
	// is to move.
	mine := res.Score
	if !s.IsComputer(userToAct(g, pos.ToAct())) {
		mine = -mine
	}
	if g.DrawOffer != "" && g.DrawOffer != me {
		if mine <= 0 {
			if _, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActAcceptDraw, GameID: g.ID, Version: g.Version, UserID: me}); err != nil {
				return err
			}
			r.forget(g.ID)
			return nil
		}
		if _, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActDeclineDraw, GameID: g.ID, Version: g.Version, UserID: me}); err != nil {
			return err
		}
		return lookAgain(g.ID) // the version moved: look again for the move
	}
	if g.ToAct != me {
		return errNothingToDo
	}
	if r.ResignLost && ai.MateIn(res.Score) < 0 {
		if _, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActResign, GameID: g.ID, Version: g.Version, UserID: me}); err != nil {
			return err
		}
		r.forget(g.ID)
		return nil
	}
	played, err := s.Move(ctx, gameplay.MoveRequest{GameID: g.ID, UserID: me, Move: rules.FormatMove(&pos, res.Move), Version: g.Version})
	if err != nil {
		return err
	}
	after := played.Game
	if after.Status != bot.GameActive {
		r.forget(g.ID)
		return nil
	}
	if after.ToAct == me {
		return nil // the computer's turn goes on
	}
	if !r.turnEnded(after, len(g.Moves), res.Score) {
		return nil
	}
	// The offer goes after the move, while the opponent thinks; when they
	// have acted meanwhile, it is not made (and the next even turn may).
	if _, err := s.Act(ctx, gameplay.ActionRequest{Action: gameplay.ActOfferDraw, GameID: after.ID, Version: after.Version, UserID: me}); err != nil {
		if bot.ErrorCode(err) != bot.ECONFLICT {
			r.log.Warn("computer: could not offer a draw", "game", g.ID, "err", err)
		}
		return nil
	}
	r.offered(g.ID)
	return nil
}

// DrawOffers is when the computer player offers its opponent a draw: at
// the end of one of its turns (after its move, so the offer reaches the
// opponent with the move; the opponent accepts, declines, or declines by
// moving), when
//   - the game has at least MinPlies atomic moves (plies),
//   - its search scored each of its last Turns turns, this one included,
//     within Margin hundredths of a pawn of equality (no forced end seen
//     either way): the game is dead even and going nowhere, and
//   - no offer of the opponent stands (that one is answered instead).
//
// The count of even turns starts again after each offer, accepted or
// not, so the computer offers at most once every Turns of its turns and
// never right after its opponent declined; it starts again too when a
// turn is not even, when moves are taken back, and when the runner
// starts (it is kept in memory: a restart only delays the next offer).
// The score of a turn is the search's for its last move. A game the
// rules end by themselves (insufficient material, repetition, the
// move-count rule) needs no offer.
type DrawOffers struct {
	MinPlies int
	Turns    int // 0: never offer
	Margin   int
}

// DefaultDrawOffers is the rule the computer player offers draws by
// unless told otherwise: from ply 60 (move 30 in chess), after six even
// turns in a row, within a fifth of a pawn.
func DefaultDrawOffers() DrawOffers { return DrawOffers{MinPlies: 60, Turns: 6, Margin: 20} }

// Explain says the rule in words for players ("" when it never offers).
func (d DrawOffers) Explain() string {
	if d.Turns <= 0 {
		return ""
	}
	turns := fmt.Sprintf("each of its last %d turns", d.Turns)
	if d.Turns == 1 {
		turns = "its last turn"
	}
	return fmt.Sprintf("It offers a draw itself, with its move, when the game is dead even and going nowhere: "+
		"the game has at least %d moves (yours and its own together) and its search saw the position within %g pawns of equality on %s. "+
		"After an offer it waits as many turns again before the next one, so it never offers again right after you decline.",
		d.MinPlies, float64(d.Margin)/100, turns)
}

// even reports whether score, the search's for the computer's move, is
// within the rule's margin of equality and no forced end.
func (d DrawOffers) even(score int) bool {
	return ai.MateIn(score) == 0 && score >= -d.Margin && score <= d.Margin
}

// evenRun is what the runner keeps of one game for DrawOffers: the
// number of moves in the game after the computer's last turn that
// counted, and its even turns in a row up to it.
type evenRun struct {
	plies int
	turns int
}

// turnEnded counts a turn of the computer that has just ended in g (now
// stored; it began with ply moves in the game) with the search's score
// for its last move, and reports whether the computer offers a draw now
// (DrawOffers).
func (r *Runner) turnEnded(g *bot.Game, ply, score int) bool {
	d := r.Draws
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.even[g.ID]
	// The opponent plays at least one move between two turns of the
	// computer, so a turn that begins no later than the last one ended
	// follows a takeback.
	if ply <= run.plies {
		run.turns = 0
	}
	run.plies = len(g.Moves)
	if d.even(score) {
		run.turns++
	} else {
		run.turns = 0
	}
	r.even[g.ID] = run
	return d.Turns > 0 && run.turns >= d.Turns && len(g.Moves) >= d.MinPlies && g.DrawOffer == ""
}

// offered starts the count of even turns of game id again after an offer.
func (r *Runner) offered(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.even[id]
	run.turns = 0
	r.even[id] = run
}

// forget drops what the runner keeps of game id (over, or not its game).
func (r *Runner) forget(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.even, id)
}

// lookAgain is the bot.ECONFLICT a step returns after a change of its own (a
// declined offer) that leaves more to do in game id.
func lookAgain(id uint64) error {
	return bot.Errorf(bot.ECONFLICT, "Game %d changed: looked at again.", id)
}

// search runs the computer's search in rg's position at g's level, with
// a seed of its own for each game and ply, so that a game against the
// computer replays the same for the same moves.
func (r *Runner) search(ctx context.Context, g *bot.Game, rg *rules.Game) (ai.Result, error) {
	level := g.Level
	if level < gameplay.MinComputerLevel || level > gameplay.MaxComputerLevel {
		level = gameplay.DefaultComputerLevel
	}
	n := len(rg.Moves())
	past := make([]uint64, 0, n)
	for i := range n {
		p := rg.PositionAt(i)
		past = append(past, p.Hash())
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", g.ID, n)
	ctx, cancel := context.WithTimeout(ctx, MoveLimit)
	defer cancel()
	e := ai.NewEngine(ai.Options{Level: level, Seed: h.Sum64()})
	return e.Search(ctx, rg.Position(), past)
}
