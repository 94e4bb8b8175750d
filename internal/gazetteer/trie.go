package gazetteer

// trie maps name skeletons, byte by byte, to the names that have them.
// Children are kept as sibling lists: most nodes have one or two, and a
// linear scan over them beats a map lookup per byte. The root, which has
// many, is a direct table.
type trie struct {
	nodes []trieNode
	root  [256]int32
}

type trieNode struct {
	c           byte
	child, next int32 // first child and next sibling, 0 for none
	refs        []nameRef
}

func (t *trie) init() {
	if len(t.nodes) == 0 {
		t.nodes = append(t.nodes, trieNode{}) // node 0 is the root
	}
}

func (t *trie) insert(key string, ref nameRef) {
	t.init()
	n := int32(0)
	for i := 0; i < len(key); i++ {
		n = t.childOrAdd(n, key[i])
	}
	t.nodes[n].refs = append(t.nodes[n].refs, ref)
}

func (t *trie) childOrAdd(n int32, c byte) int32 {
	if n == 0 {
		if t.root[c] == 0 {
			t.nodes = append(t.nodes, trieNode{c: c})
			t.root[c] = int32(len(t.nodes) - 1)
		}
		return t.root[c]
	}
	for ch := t.nodes[n].child; ch != 0; ch = t.nodes[ch].next {
		if t.nodes[ch].c == c {
			return ch
		}
	}
	t.nodes = append(t.nodes, trieNode{c: c, next: t.nodes[n].child})
	id := int32(len(t.nodes) - 1)
	t.nodes[n].child = id
	return id
}

// walk follows key from node n and returns the node reached, or -1.
func (t *trie) walk(n int32, key []byte) int32 {
	if len(t.nodes) == 0 {
		return -1
	}
	for _, c := range key {
		if n == 0 {
			n = t.root[c]
			if n == 0 {
				return -1
			}
			continue
		}
		ch := t.nodes[n].child
		for ch != 0 && t.nodes[ch].c != c {
			ch = t.nodes[ch].next
		}
		if ch == 0 {
			return -1
		}
		n = ch
	}
	return n
}
