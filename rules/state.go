package rules

// stateBytes is where a Position keeps its variant's own state (a pass
// count, a pending step, a debt): 8 bytes that only the variant's typed
// state reads and writes, through its pack method and its unpack
// function (see newStateKind). Keeping them as a fixed array keeps
// Position a comparable value that is cheap to copy. All zero is the
// state of a start position, and of every position of a variant without
// state.
type stateBytes [8]uint8

// variantState is the contract of a variant's typed state S: a small
// comparable struct, declared in the variant's own file, whose zero value
// is the state of a start position and packs to zero bytes.
type variantState interface {
	comparable
	// pack stores the state in the bytes a Position keeps; the
	// variant's unpack reads the same state back from them.
	pack() stateBytes
	// fen writes the state as the seventh FEN field, without spaces; ""
	// when there is nothing to say (always for the zero state), and FEN
	// then leaves the field out.
	fen() string
}

// StateKind tells shared code what it needs of a variant's own state
// (Variant.State): how FEN writes and reads it, and which of it makes a
// position what it is, for repetition (Position.Hash). The variant's
// hooks read and change the state through its typed form; shared code
// only copies the bytes. Build one with newStateKind, inside this package.
type StateKind struct {
	fen      func(st stateBytes) string
	parseFEN func(p *Position, field string) (stateBytes, error)
	// identity keeps the part of the state that is part of the position
	// and clears what only records how the position was reached; nil
	// keeps all of it.
	identity func(st stateBytes) stateBytes
}

// newStateKind declares a variant's typed state S. unpack reads S from a
// position's bytes (the inverse of S.pack). parse reads the seventh FEN
// field into S for p, a position read from FEN with everything else set
// (board, side, phase, counters): it refuses states the variant cannot
// reach and drops what the board contradicts, so that FEN(ParseFEN(s)) is
// canonical. identity, when not nil, returns the part of a state that
// makes a position what it is: fields it clears record only how the
// position was reached, and Position.Hash leaves them out (Crazyhouse
// Annihilation's count of consecutive passes).
func newStateKind[S variantState](unpack func(stateBytes) S, parse func(p *Position, field string) (S, error), identity func(S) S) *StateKind {
	k := &StateKind{
		fen: func(st stateBytes) string { return unpack(st).fen() },
		parseFEN: func(p *Position, field string) (stateBytes, error) {
			s, err := parse(p, field)
			if err != nil {
				return stateBytes{}, err
			}
			return s.pack(), nil
		},
	}
	if identity != nil {
		k.identity = func(st stateBytes) stateBytes { return identity(unpack(st)).pack() }
	}
	return k
}

// identityBytes returns the bytes of p's state that Hash counts.
func (p *Position) identityBytes() stateBytes {
	if k := p.v.State; k != nil && k.identity != nil {
		return k.identity(p.state)
	}
	return p.state
}
