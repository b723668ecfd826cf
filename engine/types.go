// Package engine is Horizon's chess engine: a bitboard board with legal move
// generation, notation (FEN, EPD, UCI, SAN), evaluation, and an alpha-beta
// search whose quiescence search is pluggable and whose every node can be
// reported to a Tracer. It knows nothing of storage or display.
package engine

// Color is the side of a piece or the side to move.
type Color uint8

// The two colours. Other() flips between them.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b", as in FEN.
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// Piece types. NoPieceType is zero so an empty square reads as nothing.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: colour<<3 | type. NoPiece is zero.
type Piece uint8

// NoPiece marks an empty square.
const NoPiece Piece = 0

// MakePiece combines a colour and a piece type.
func MakePiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour; meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceLetters = " PNBRQK  pnbrqk"

// Letter returns the FEN letter of the piece (upper case for White).
func (p Piece) Letter() byte { return pieceLetters[p&15] }

// Square is a board square, a1 = 0, b1 = 1, ..., h8 = 63.
type Square uint8

// NoSquare means "none", for example no en passant square.
const NoSquare Square = 64

// MakeSquare returns the square on file f (0 = a) and rank r (0 = rank 1).
func MakeSquare(f, r int) Square { return Square(r*8 + f) }

// File returns 0 for the a-file through 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank through 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square in algebraic notation, "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// Bitboard is a set of squares, bit i for square i.
type Bitboard uint64

// Move packs a move into 32 bits: from (bits 0-5), to (6-11), promotion piece
// type (12-14, NoPieceType when none) and a special flag (15-16). The zero
// value is NoMove. Captures are not encoded: the board knows what stands on to.
type Move uint32

// NoMove is the absent move (no best move, the move into a root node).
const NoMove Move = 0

// Special move flags.
const (
	flagNormal    = 0
	flagCastle    = 1
	flagEnPassant = 2
)

func newMove(from, to Square, promo PieceType, flag uint32) Move {
	return Move(uint32(from) | uint32(to)<<6 | uint32(promo)<<12 | flag<<15)
}

// From returns the square the move starts on.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the move ends on (the king's destination for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the promotion piece type, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 12 & 7) }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { return m>>15&3 == flagCastle }

// IsEnPassant reports whether the move is an en passant capture.
func (m Move) IsEnPassant() bool { return m>>15&3 == flagEnPassant }

// UCI returns the move in UCI notation ("e2e4", "e7e8q"); "0000" for NoMove
// and NullMove.
func (m Move) UCI() string {
	if m == NoMove || m == NullMove {
		return NullUCI
	}
	s := m.From().String() + m.To().String()
	if p := m.Promotion(); p != NoPieceType {
		// '?' for the 3-bit values no piece has: a move read from a damaged
		// trace must print, not panic.
		s += string(" pnbrqk??"[p])
	}
	return s
}

// String returns the UCI notation of the move.
func (m Move) String() string { return m.UCI() }

// Score is a search score in centipawns from the side to move's view.
type Score int32

// Score bounds. Mate scores are MateScore - plies to mate.
const (
	Infinity  Score = 32000
	MateScore Score = 31000
	// MateBound: any |score| above it is a mate score.
	MateBound Score = MateScore - 1000
	DrawScore Score = 0
)

// IsMate reports whether the score announces a forced mate for either side.
// ±Infinity is not a mate: it is a win or loss by rule (an auto-fail-high
// with an infinite beta).
func (s Score) IsMate() bool {
	return (s > MateBound || s < -MateBound) && s < Infinity && s > -Infinity
}

// MateIn returns the signed number of moves (not plies) to mate: positive when
// the side to move mates. It is meaningful only when IsMate.
func (s Score) MateIn() int {
	if s > 0 {
		return int(MateScore-s+1) / 2
	}
	return -int(MateScore+s) / 2
}
