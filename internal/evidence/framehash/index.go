package framehash

// chunks is how many 16-bit pieces a hash is indexed by: two hashes within
// r bits agree to within r/chunks bits on at least one piece (the
// pigeonhole), so a query looks only in the buckets that near each piece.
const chunks = 4

// Index holds hashes by id for near-neighbour queries.
type Index struct {
	hashes  []Hash
	ids     []int64
	buckets *[chunks][1 << 16][]int32
	seen    []uint32 // a query's stamp per entry: each is checked once
	stamp   uint32
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{buckets: new([chunks][1 << 16][]int32)}
}

// Len is how many hashes the index holds.
func (x *Index) Len() int { return len(x.hashes) }

// Add indexes h under id (several hashes may share an id, and one id
// several hashes).
func (x *Index) Add(id int64, h Hash) {
	k := int32(len(x.hashes))
	x.hashes = append(x.hashes, h)
	x.ids = append(x.ids, id)
	x.seen = append(x.seen, 0)
	for i := range chunks {
		c := piece(h, i)
		x.buckets[i][c] = append(x.buckets[i][c], k)
	}
}

func piece(h Hash, i int) uint16 { return uint16(uint64(h) >> (16 * i)) }

// Match is an indexed hash near a query.
type Match struct {
	ID       int64
	Distance int
}

// Near calls found for each indexed hash within radius bits of h (radius
// at most 15). Not safe for use by several goroutines at once.
func (x *Index) Near(h Hash, radius int, found func(Match)) {
	x.stamp++
	if x.stamp == 0 { // wrapped: forget every stamp
		clear(x.seen)
		x.stamp = 1
	}
	per := radius / chunks
	for i := range chunks {
		c := piece(h, i)
		eachWithin(c, per, func(v uint16) {
			for _, k := range x.buckets[i][v] {
				if x.seen[k] == x.stamp {
					continue
				}
				x.seen[k] = x.stamp
				if d := Distance(h, x.hashes[k]); d <= radius {
					found(Match{x.ids[k], d})
				}
			}
		})
	}
}

// eachWithin calls f with every 16-bit value within r bits of c.
func eachWithin(c uint16, r int, f func(uint16)) {
	f(c)
	if r >= 1 {
		for a := range 16 {
			f(c ^ 1<<a)
			if r >= 2 {
				for b := a + 1; b < 16; b++ {
					f(c ^ 1<<a ^ 1<<b)
					if r >= 3 {
						for d := b + 1; d < 16; d++ {
							f(c ^ 1<<a ^ 1<<b ^ 1<<d)
						}
					}
				}
			}
		}
	}
}

// Radius is how far apart two hashes of one frame may be: the copies of
// TestSameFrame lie within it, different scenes rarely do.
const Radius = 12
