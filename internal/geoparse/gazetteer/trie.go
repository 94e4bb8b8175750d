package gazetteer

import "slices"

// trie maps name skeletons, byte by byte, to the names that have them.
// Each node keeps its children in a small contiguous slice, scanned
// linearly (most nodes have one or two); the root, which has many, is a
// direct table.
type trie struct {
	nodes []trieNode
	root  [256]int32
	// cow says the nodes' slices may be another trie's: each is copied
	// before it grows.
	cow bool
}

type trieNode struct {
	kids []trieKid
	refs []nameRef
}

type trieKid struct {
	c    byte
	node int32
}

// insert adds ref under key and returns the node that holds it.
func (t *trie) insert(key string, ref nameRef) int32 {
	if len(t.nodes) == 0 {
		t.nodes = append(t.nodes, trieNode{}) // node 0 is the root
	}
	n := int32(0)
	for i := 0; i < len(key); i++ {
		n = t.childOrAdd(n, key[i])
	}
	refs := t.nodes[n].refs
	if t.cow {
		refs = slices.Clip(refs)
	}
	t.nodes[n].refs = append(refs, ref)
	return n
}

func (t *trie) childOrAdd(n int32, c byte) int32 {
	if n == 0 {
		if t.root[c] == 0 {
			t.nodes = append(t.nodes, trieNode{})
			t.root[c] = int32(len(t.nodes) - 1)
		}
		return t.root[c]
	}
	for _, k := range t.nodes[n].kids {
		if k.c == c {
			return k.node
		}
	}
	t.nodes = append(t.nodes, trieNode{})
	id := int32(len(t.nodes) - 1)
	kids := t.nodes[n].kids
	if t.cow {
		kids = slices.Clip(kids)
	}
	t.nodes[n].kids = append(kids, trieKid{c, id})
	return id
}

// walk follows key from node n and returns the node reached, or -1.
func (t *trie) walk(n int32, key []byte) int32 {
	if len(t.nodes) == 0 {
		return -1
	}
next:
	for _, c := range key {
		if n == 0 {
			if n = t.root[c]; n == 0 {
				return -1
			}
			continue
		}
		for _, k := range t.nodes[n].kids {
			if k.c == c {
				n = k.node
				continue next
			}
		}
		return -1
	}
	return n
}
