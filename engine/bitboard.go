package engine

import "math/bits"

// Board geometry and attack tables. Sliding attacks use "fancy" magic
// bitboards; their multipliers come from a seeded search whose results are
// stored in magics_table.go, so start-up only fills the tables.

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xFF
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank4 Bitboard = rank1 << 24
	rank5 Bitboard = rank1 << 32
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
)

func sqBB(s Square) Bitboard { return 1 << s }

// lsb returns the lowest square of a non-empty set.
func (b Bitboard) lsb() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// popLSB removes and returns the lowest square of a non-empty set.
func (b *Bitboard) popLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// Has reports whether the set holds square s.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// moreThanOne reports whether the set has two or more squares.
func (b Bitboard) moreThanOne() bool { return b&(b-1) != 0 }

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// between[a][b]: squares strictly between a and b on a line, else empty.
	between [64][64]Bitboard
	// line[a][b]: the whole line through a and b (edge to edge), else empty.
	line [64][64]Bitboard
	// rookRays/bishopRays[s]: the squares a rook/bishop on s sees on an empty board.
	rookRays, bishopRays [64]Bitboard
)

type magic struct {
	mask    Bitboard
	magic   uint64
	attacks []Bitboard
	shift   uint8
}

func (m *magic) index(occ Bitboard) uint64 {
	// The &63 tells the compiler the shift is below 64, which drops its
	// check for over-wide shifts from this hot path.
	return uint64(occ&m.mask) * m.magic >> (m.shift & 63)
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [0x19000]Bitboard
	bishopTable  [0x1480]Bitboard
)

func rookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return m.attacks[m.index(occ)]
}

func bishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return m.attacks[m.index(occ)]
}

func queenAttacks(s Square, occ Bitboard) Bitboard {
	return rookAttacks(s, occ) | bishopAttacks(s, occ)
}

var rookDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// slide computes sliding attacks the slow way; used to fill the tables.
func slide(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var a Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := MakeSquare(f, r)
			a |= sqBB(t)
			if occ.Has(t) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return a
}

// prng is xorshift64*, used for magics and Zobrist keys so both are fixed.
type prng uint64

func (p *prng) next() uint64 {
	x := uint64(*p)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*p = prng(x)
	return x * 2685821657736338717
}

func (p *prng) sparse() uint64 { return p.next() & p.next() & p.next() }

// initMagics fills the attack tables of one slider. known holds magic
// numbers found earlier by this same search (magics_table.go, written by
// TestMagicTable -update); each is verified as it is used, and a
// square whose known number does not fit (or has none) is searched again, so
// a stale table costs start-up time, never correctness.
func initMagics(table []Bitboard, magics *[64]magic, dirs [4][2]int, known *[64]uint64) {
	// Seeds per rank that find magics quickly with this generator.
	seeds := [8]uint64{728, 10316, 55013, 32803, 12281, 15100, 16645, 255}
	var occs, refs [4096]Bitboard
	var epoch [4096]int
	cnt := 0
	offset := 0
	for s := Square(0); s < 64; s++ {
		edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(s.Rank())))) |
			((fileA | fileH) &^ (fileA << uint(s.File())))
		m := &magics[s]
		m.mask = slide(s, 0, dirs) &^ edges
		n := m.mask.Count()
		m.shift = uint8(64 - n)
		size := 1 << n
		m.attacks = table[offset : offset+size]
		offset += size
		// Carry-rippler over every subset of the mask.
		var b Bitboard
		i := 0
		for {
			occs[i] = b
			refs[i] = slide(s, b, dirs)
			i++
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		rng := prng(seeds[s.Rank()])
		for try := 0; ; try++ {
			if try == 0 && known != nil && known[s] != 0 {
				m.magic = known[s]
			} else {
				for {
					m.magic = rng.sparse()
					if bits.OnesCount64((uint64(m.mask)*m.magic)>>56) >= 6 {
						break
					}
				}
			}
			cnt++
			ok := true
			for j := 0; j < size; j++ {
				idx := m.index(occs[j])
				if epoch[idx] < cnt {
					epoch[idx] = cnt
					m.attacks[idx] = refs[j]
				} else if m.attacks[idx] != refs[j] {
					ok = false
					break
				}
			}
			if ok {
				break
			}
		}
	}
}

func init() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				knightAttacks[s] |= sqBB(MakeSquare(ff, rr))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if ff, rr := f+df, r+dr; (df != 0 || dr != 0) && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
					kingAttacks[s] |= sqBB(MakeSquare(ff, rr))
				}
			}
		}
		for _, df := range [2]int{-1, 1} {
			if ff := f + df; ff >= 0 && ff < 8 {
				if r < 7 {
					pawnAttacks[White][s] |= sqBB(MakeSquare(ff, r+1))
				}
				if r > 0 {
					pawnAttacks[Black][s] |= sqBB(MakeSquare(ff, r-1))
				}
			}
		}
	}
	initMagics(rookTable[:], &rookMagics, rookDirs, &rookMagicNumbers)
	initMagics(bishopTable[:], &bishopMagics, bishopDirs, &bishopMagicNumbers)
	for s := Square(0); s < 64; s++ {
		rookRays[s], bishopRays[s] = rookAttacks(s, 0), bishopAttacks(s, 0)
	}
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			if slide(a, 0, bishopDirs).Has(b) {
				between[a][b] = bishopAttacks(a, sqBB(b)) & bishopAttacks(b, sqBB(a))
				line[a][b] = (bishopAttacks(a, 0) & bishopAttacks(b, 0)) | sqBB(a) | sqBB(b)
			} else if slide(a, 0, rookDirs).Has(b) {
				between[a][b] = rookAttacks(a, sqBB(b)) & rookAttacks(b, sqBB(a))
				line[a][b] = (rookAttacks(a, 0) & rookAttacks(b, 0)) | sqBB(a) | sqBB(b)
			}
		}
	}
}
