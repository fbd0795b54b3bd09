package storage

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
)

// The layout of a bbolt file, as far as checkStructure reads it. Every
// page starts with a 16-byte header: its ID (8 bytes), flags (2), element
// count (2) and overflow (4: the pages that follow it and belong to it).
// A meta page (pages 0 and 1) holds after its header the magic number,
// the format version and the page size (4 bytes each), flags (4), the
// root bucket (its root page and sequence, 8 bytes each), the freelist
// page, the high-water mark (pages in use), the transaction ID (8 bytes
// each) and an FNV-64a checksum of the 64 bytes before it. A branch page
// has 16-byte elements (key position, key size, child page); a leaf page
// 16-byte elements (flags, position, key size, value size); positions
// count from the element. A leaf element flagged as a bucket has as its
// value the bucket's root page and sequence, then, for a root of 0, the
// bucket's own small page inline. Numbers are in the machine's byte order.
const (
	boltMagic     = 0xED0CDAED
	boltVersion   = 2
	headerSize    = 16
	elementSize   = 16
	metaRoot      = headerSize + 16
	metaFreelist  = headerSize + 32
	metaHighWater = headerSize + 40
	metaTxID      = headerSize + 48
	metaChecksum  = headerSize + 56
	metaSize      = metaChecksum + 8
	bucketHeader  = 16 // root page and sequence of a bucket's value

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagFreelist = 0x10
	flagBucket   = 0x01 // of a leaf element

	noFreelist  = ^uint64(0)
	maxPageSize = 64 << 10 // the largest page size looked for
	maxNesting  = 64       // inline buckets within inline buckets
)

// meta is what checkStructure uses of a meta page.
type meta struct {
	pageSize  int
	root      uint64 // the root bucket's root page
	freelist  uint64
	highWater uint64 // pages in use
	txid      uint64
}

// readMeta decodes the meta page at the start of b and reports whether it
// is valid: bbolt's magic, version and checksum.
func readMeta(b []byte) (meta, bool) {
	e := binary.NativeEndian
	if len(b) < metaSize || e.Uint32(b[headerSize:]) != boltMagic || e.Uint32(b[headerSize+4:]) != boltVersion {
		return meta{}, false
	}
	h := fnv.New64a()
	h.Write(b[headerSize:metaChecksum])
	if h.Sum64() != e.Uint64(b[metaChecksum:]) {
		return meta{}, false
	}
	return meta{pageSize: int(e.Uint32(b[headerSize+8:])), root: e.Uint64(b[metaRoot:]),
		freelist: e.Uint64(b[metaFreelist:]), highWater: e.Uint64(b[metaHighWater:]), txid: e.Uint64(b[metaTxID:])}, true
}

// checkLength returns a *DamagedError if the bbolt file at path is
// shorter than the pages its newest valid meta page says are in use. It
// reads the meta pages only.
func checkLength(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	_, _, err = readHead(path, f)
	return err
}

// readHead reads the newest valid meta page of the bbolt file f (at
// path) and checks the file's length against it. ok is false for a file
// bbolt is left to create or refuse: empty, too short, or with both meta
// pages invalid.
func readHead(path string, f *os.File) (m meta, ok bool, err error) {
	st, err := f.Stat()
	if err != nil || st.Size() < metaSize {
		return meta{}, false, nil
	}
	first := make([]byte, metaSize)
	if _, err := f.ReadAt(first, 0); err != nil {
		return meta{}, false, nil
	}
	m, ok = readMeta(first)
	pageSize := m.pageSize
	if !ok || pageSize < metaSize || pageSize > maxPageSize {
		pageSize = 4096 // the first meta page is unreadable: the usual size
	}
	second := make([]byte, metaSize)
	if _, err := f.ReadAt(second, int64(pageSize)); err == nil {
		if m2, ok2 := readMeta(second); ok2 && (!ok || m2.txid > m.txid) {
			m, ok = m2, true
		}
	}
	if !ok {
		return meta{}, false, nil
	}
	if m.pageSize < metaSize || m.pageSize > maxPageSize {
		return m, false, &DamagedError{Path: path, Problem: fmt.Sprintf("its page size %d makes no sense", m.pageSize)}
	}
	if need := m.highWater * uint64(m.pageSize); need > uint64(st.Size()) {
		return m, false, &DamagedError{Path: path, Problem: fmt.Sprintf("the file is cut short: %d bytes, and its pages need %d", st.Size(), need)}
	}
	return m, true, nil
}

// checkStructure reads the bbolt file at path, without mapping it, and
// returns a *DamagedError if a page, key or value in use points outside
// the file or outside its page: the file shorter than its pages, a page
// number past the pages in use, an element past its page, a page reached
// twice, a page that is neither branch nor leaf where one is expected, a
// freelist longer than its page. bbolt maps the file into memory and
// trusts these numbers: reading past the end of the mapping kills the
// process (a fault no recover catches), and bbolt's consistency check
// does such reads in a goroutine of its own. A missing or empty file, or
// one whose meta pages are both invalid, is left to bbolt to create or
// refuse. It reads every page in use once.
func checkStructure(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	m, ok, err := readHead(path, f)
	if !ok {
		return err
	}
	w := &walker{f: f, pageSize: m.pageSize, highWater: m.highWater, seen: map[uint64]bool{}}
	if err := w.checkFreelist(m.freelist); err != nil {
		return &DamagedError{Path: path, Problem: err.Error()}
	}
	if err := w.walk(m.root, 0); err != nil {
		return &DamagedError{Path: path, Problem: err.Error()}
	}
	return nil
}

// walker reads the pages of a bbolt file.
type walker struct {
	f         *os.File
	pageSize  int
	highWater uint64
	seen      map[uint64]bool
}

// page reads page id with its overflow pages.
func (w *walker) page(id uint64) ([]byte, error) {
	if id < 2 || id >= w.highWater {
		return nil, fmt.Errorf("page %d is outside the %d pages in use", id, w.highWater)
	}
	p := make([]byte, w.pageSize)
	if _, err := w.f.ReadAt(p, int64(id)*int64(w.pageSize)); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	overflow := uint64(binary.NativeEndian.Uint32(p[12:]))
	if overflow == 0 {
		return p, nil
	}
	if id+overflow >= w.highWater {
		return nil, fmt.Errorf("page %d runs %d pages past the %d pages in use", id, id+overflow+1-w.highWater, w.highWater)
	}
	p = append(p, make([]byte, overflow*uint64(w.pageSize))...)
	if _, err := w.f.ReadAt(p[w.pageSize:], int64(id+1)*int64(w.pageSize)); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	return p, nil
}

// checkFreelist checks that the freelist page's IDs fit in it.
func (w *walker) checkFreelist(id uint64) error {
	if id == noFreelist {
		return nil
	}
	p, err := w.page(id)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	e := binary.NativeEndian
	if e.Uint16(p[8:])&flagFreelist == 0 {
		return fmt.Errorf("page %d is not the freelist the meta page says it is (flags %#x)", id, e.Uint16(p[8:]))
	}
	count, first := uint64(e.Uint16(p[10:])), uint64(0)
	if count == 0xFFFF {
		// A long freelist gives its length in its first 8 bytes.
		count, first = e.Uint64(p[headerSize:]), 1
	}
	if count > uint64(len(p)) || headerSize+(first+count)*8 > uint64(len(p)) {
		return fmt.Errorf("the freelist (page %d) counts %d pages, more than it holds", id, count)
	}
	return nil
}

// walk checks page id, a branch or leaf page of a bucket, and the pages
// below it.
func (w *walker) walk(id uint64, nesting int) error {
	if w.seen[id] {
		return fmt.Errorf("page %d is reached twice", id)
	}
	w.seen[id] = true
	p, err := w.page(id)
	if err != nil {
		return err
	}
	return w.elements(p, place{page: id}, nesting)
}

// place names a page of the file, or a bucket inline in one of its
// elements, in messages.
type place struct {
	page    uint64
	element []int // the elements holding the inline bucket, outermost first
}

func (p place) String() string {
	s := fmt.Sprintf("page %d", p.page)
	for _, e := range p.element {
		s += fmt.Sprintf(", element %d (an inline bucket)", e)
	}
	return s
}

// elements checks the elements of the branch or leaf page p (a page of
// the file, or a bucket's inline page), called where in messages, and
// walks the pages they point to.
func (w *walker) elements(p []byte, where place, nesting int) error {
	if nesting > maxNesting {
		return fmt.Errorf("%s: buckets nested more than %d deep", where, maxNesting)
	}
	if len(p) < headerSize {
		return fmt.Errorf("%s: shorter than a page header", where)
	}
	e := binary.NativeEndian
	flags, count := e.Uint16(p[8:]), int(e.Uint16(p[10:]))
	if headerSize+count*elementSize > len(p) {
		return fmt.Errorf("%s: %d elements do not fit in it", where, count)
	}
	branch := flags&flagBranch != 0
	if !branch && flags&flagLeaf == 0 {
		return fmt.Errorf("%s is neither a branch nor a leaf page (flags %#x)", where, flags)
	}
	for i := range count {
		off := headerSize + i*elementSize
		el := p[off : off+elementSize]
		var start, size uint64
		if branch {
			start, size = uint64(off)+uint64(e.Uint32(el[0:])), uint64(e.Uint32(el[4:]))
		} else {
			start, size = uint64(off)+uint64(e.Uint32(el[4:])), uint64(e.Uint32(el[8:]))+uint64(e.Uint32(el[12:]))
		}
		if start+size > uint64(len(p)) {
			return fmt.Errorf("%s: element %d reaches past the page", where, i)
		}
		switch {
		case branch:
			if err := w.walk(e.Uint64(el[8:]), nesting); err != nil {
				return err
			}
		case e.Uint32(el[0:])&flagBucket != 0:
			v := p[start+uint64(e.Uint32(el[8:])) : start+size]
			if len(v) < bucketHeader {
				return fmt.Errorf("%s: element %d is a bucket too short to be one", where, i)
			}
			if root := e.Uint64(v); root != 0 {
				err := w.walk(root, nesting+1)
				if err != nil {
					return err
				}
			} else if err := w.elements(v[bucketHeader:], place{where.page, append(where.element[:len(where.element):len(where.element)], i)}, nesting+1); err != nil {
				return err
			}
		}
	}
	return nil
}
