// Command interop checks Reprise's signed notes, checkpoints and Merkle proofs with Go's
// reference packages golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog, and
// writes notes and cosignatures for Reprise to check. test/journal/go-interop.test.ts
// builds it in GOPATH mode and drives it: one JSON request on stdin, one JSON answer on
// stdout. Every case carries its own inputs, so the test can send tampered copies and
// require a failure.
//
// The note package (x/mod v0.7.0, Debian's golang-golang-x-mod-dev) implements no
// c2sp.org/tlog-cosignature; cosigner and cosignatureVerifier below are written from that
// spec on the package's Signer and Verifier interfaces, so note.Sign and note.Open frame,
// key-id and base64 the lines while the cosigned message and the timestamp layout are this
// file's second reading of the spec.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	Notes   []noteCase   `json:"notes"`
	Records []recordCase `json:"records"`
	Trees   []treeCase   `json:"trees"`
	Roots   []string     `json:"roots"`
	Prove   []proveCase  `json:"prove"`
	Sign    []signCase   `json:"sign"`
	Cosign  []cosignCase `json:"cosign"`
}

// noteCase: open Note with the verifier keys (type 0x01 through note.NewVerifier, type 0x04
// through cosignatureVerifier).
type noteCase struct {
	ID        string   `json:"id"`
	Note      string   `json:"note"`
	VKeys     []string `json:"vkeys"`
	Cosigners []string `json:"cosigners"`
}

// recordCase: open Note (a checkpoint) with VKey, then tlog.CheckRecord that Leaf is record
// Index of the tree the checkpoint names, by Proof.
type recordCase struct {
	ID    string   `json:"id"`
	Note  string   `json:"note"`
	VKey  string   `json:"vkey"`
	Index int64    `json:"index"`
	Leaf  string   `json:"leaf"`
	Proof []string `json:"proof"`
}

// treeCase: open both checkpoints with VKey, then tlog.CheckTree that the newer extends the older.
type treeCase struct {
	ID      string   `json:"id"`
	OldNote string   `json:"oldNote"`
	NewNote string   `json:"newNote"`
	VKey    string   `json:"vkey"`
	Proof   []string `json:"proof"`
}

// proveCase: over the leaves of Roots, tlog.ProveRecord (Kind "record": record Index in the
// tree of Size) or tlog.ProveTree (Kind "tree": the tree of Index leaves in the tree of Size).
type proveCase struct {
	Kind  string `json:"kind"`
	Size  int64  `json:"size"`
	Index int64  `json:"index"`
}

type signCase struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Text string `json:"text"`
}

// cosignCase: open Note with VKey (the log's key) and cosign it at Time with a fresh key named Name.
type cosignCase struct {
	ID   string `json:"id"`
	Note string `json:"note"`
	VKey string `json:"vkey"`
	Name string `json:"name"`
	Time uint64 `json:"time"`
}

type verdict struct {
	ID       string   `json:"id"`
	OK       bool     `json:"ok"`
	Error    string   `json:"error,omitempty"`
	Verified []string `json:"verified,omitempty"`
}

type signed struct {
	ID   string `json:"id"`
	VKey string `json:"vkey"`
	Note string `json:"note"`
}

type answer struct {
	Notes    []verdict  `json:"notes"`
	Records  []verdict  `json:"records"`
	Trees    []verdict  `json:"trees"`
	Roots    []string   `json:"roots"`
	Proofs   [][]string `json:"proofs"`
	Signed   []signed   `json:"signed"`
	Cosigned []signed   `json:"cosigned"`
}

const algCosignatureV1 = 0x04

func keyHash(name string, typedKey []byte) uint32 {
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write(typedKey)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

func cosignedMessage(t uint64, text []byte) []byte {
	return append([]byte("cosignature/v1\ntime "+strconv.FormatUint(t, 10)+"\n"), text...)
}

type cosignatureVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v *cosignatureVerifier) Name() string    { return v.name }
func (v *cosignatureVerifier) KeyHash() uint32 { return v.hash }
func (v *cosignatureVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig)
	if t > 1<<63-1 {
		return false
	}
	return ed25519.Verify(v.key, cosignedMessage(t, msg), sig[8:])
}

// newCosignatureVerifier reads a vkey "name+hash+base64(0x04 || key)".
func newCosignatureVerifier(vkey string) (note.Verifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, errors.New("malformed cosigner vkey")
	}
	hash, err1 := strconv.ParseUint(parts[1], 16, 32)
	key, err2 := base64.StdEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(parts[1]) != 8 || len(key) != 1+ed25519.PublicKeySize || key[0] != algCosignatureV1 {
		return nil, errors.New("malformed cosigner vkey")
	}
	if uint32(hash) != keyHash(parts[0], key) {
		return nil, errors.New("cosigner vkey hash mismatch")
	}
	return &cosignatureVerifier{name: parts[0], hash: uint32(hash), key: ed25519.PublicKey(key[1:])}, nil
}

type cosigner struct {
	name string
	hash uint32
	priv ed25519.PrivateKey
	time uint64
}

func (s *cosigner) Name() string    { return s.name }
func (s *cosigner) KeyHash() uint32 { return s.hash }
func (s *cosigner) Sign(msg []byte) ([]byte, error) {
	out := make([]byte, 8, 8+ed25519.SignatureSize)
	binary.BigEndian.PutUint64(out, s.time)
	return append(out, ed25519.Sign(s.priv, cosignedMessage(s.time, msg))...), nil
}

func verifiers(vkeys, cosigners []string) (note.Verifiers, error) {
	var list []note.Verifier
	for _, k := range vkeys {
		v, err := note.NewVerifier(k)
		if err != nil {
			return nil, fmt.Errorf("vkey %q: %v", k, err)
		}
		list = append(list, v)
	}
	for _, k := range cosigners {
		v, err := newCosignatureVerifier(k)
		if err != nil {
			return nil, fmt.Errorf("cosigner vkey %q: %v", k, err)
		}
		list = append(list, v)
	}
	return note.VerifierList(list...), nil
}

func open(msg string, vkeys, cosigners []string) (*note.Note, error) {
	known, err := verifiers(vkeys, cosigners)
	if err != nil {
		return nil, err
	}
	return note.Open([]byte(msg), known)
}

// checkpoint reads the size and root of a verified checkpoint text (c2sp.org/tlog-checkpoint).
func checkpoint(text string) (int64, tlog.Hash, error) {
	lines := strings.SplitN(text, "\n", 4)
	if len(lines) < 4 {
		return 0, tlog.Hash{}, errors.New("checkpoint has fewer than three lines")
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || lines[1] != strconv.FormatInt(n, 10) {
		return 0, tlog.Hash{}, errors.New("malformed tree size")
	}
	h, err := tlog.ParseHash(lines[2])
	return n, h, err
}

func hashes(b64 []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(b64))
	for i, s := range b64 {
		h, err := tlog.ParseHash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func verdictOf(id string, err error) verdict {
	if err != nil {
		return verdict{ID: id, Error: err.Error()}
	}
	return verdict{ID: id, OK: true}
}

func checkNote(c noteCase) verdict {
	n, err := open(c.Note, c.VKeys, c.Cosigners)
	if err != nil {
		return verdictOf(c.ID, err)
	}
	v := verdictOf(c.ID, nil)
	for _, s := range n.Sigs {
		v.Verified = append(v.Verified, s.Name)
	}
	return v
}

func checkRecord(c recordCase) error {
	n, err := open(c.Note, []string{c.VKey}, nil)
	if err != nil {
		return err
	}
	size, root, err := checkpoint(n.Text)
	if err != nil {
		return err
	}
	leaf, err := base64.StdEncoding.DecodeString(c.Leaf)
	if err != nil {
		return err
	}
	proof, err := hashes(c.Proof)
	if err != nil {
		return err
	}
	return tlog.CheckRecord(proof, size, root, c.Index, tlog.RecordHash(leaf))
}

func checkTree(c treeCase) error {
	var sizes [2]int64
	var roots [2]tlog.Hash
	for i, msg := range []string{c.OldNote, c.NewNote} {
		n, err := open(msg, []string{c.VKey}, nil)
		if err != nil {
			return err
		}
		if sizes[i], roots[i], err = checkpoint(n.Text); err != nil {
			return err
		}
	}
	proof, err := hashes(c.Proof)
	if err != nil {
		return err
	}
	return tlog.CheckTree(proof, sizes[1], roots[1], sizes[0], roots[0])
}

// tree stores the hashes of Roots' leaves as tlog lays them out, for TreeHash and the proofs.
type tree struct{ stored []tlog.Hash }

func (t *tree) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(t.stored)) {
			return nil, fmt.Errorf("no stored hash %d", x)
		}
		out[i] = t.stored[x]
	}
	return out, nil
}

// roots returns the tree hash after each leaf, computed by tlog alone.
func (t *tree) roots(leaves []string) ([]string, error) {
	var out []string
	for i, b64 := range leaves {
		leaf, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, err
		}
		more, err := tlog.StoredHashes(int64(i), leaf, t)
		if err != nil {
			return nil, err
		}
		t.stored = append(t.stored, more...)
		h, err := tlog.TreeHash(int64(i+1), t)
		if err != nil {
			return nil, err
		}
		out = append(out, h.String())
	}
	return out, nil
}

func (t *tree) prove(c proveCase) ([]string, error) {
	var proof []tlog.Hash
	var err error
	switch c.Kind {
	case "record":
		proof, err = tlog.ProveRecord(c.Size, c.Index, t)
	case "tree":
		proof, err = tlog.ProveTree(c.Size, c.Index, t)
	default:
		err = fmt.Errorf("unknown proof kind %q", c.Kind)
	}
	out := []string{}
	for _, h := range proof {
		out = append(out, h.String())
	}
	return out, err
}

func sign(c signCase) (signed, error) {
	skey, vkey, err := note.GenerateKey(rand.Reader, c.Name)
	if err != nil {
		return signed{}, err
	}
	s, err := note.NewSigner(skey)
	if err != nil {
		return signed{}, err
	}
	msg, err := note.Sign(&note.Note{Text: c.Text}, s)
	return signed{ID: c.ID, VKey: vkey, Note: string(msg)}, err
}

func cosign(c cosignCase) (signed, error) {
	n, err := open(c.Note, []string{c.VKey}, nil)
	if err != nil {
		return signed{}, err
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return signed{}, err
	}
	typed := append([]byte{algCosignatureV1}, pub...)
	s := &cosigner{name: c.Name, hash: keyHash(c.Name, typed), priv: priv, time: c.Time}
	msg, err := note.Sign(n, s)
	vkey := fmt.Sprintf("%s+%08x+%s", c.Name, s.hash, base64.StdEncoding.EncodeToString(typed))
	return signed{ID: c.ID, VKey: vkey, Note: string(msg)}, err
}

func run(req request) (answer, error) {
	ans := answer{Notes: []verdict{}, Records: []verdict{}, Trees: []verdict{}, Roots: []string{}, Proofs: [][]string{}, Signed: []signed{}, Cosigned: []signed{}}
	for _, c := range req.Notes {
		ans.Notes = append(ans.Notes, checkNote(c))
	}
	for _, c := range req.Records {
		ans.Records = append(ans.Records, verdictOf(c.ID, checkRecord(c)))
	}
	for _, c := range req.Trees {
		ans.Trees = append(ans.Trees, verdictOf(c.ID, checkTree(c)))
	}
	t := &tree{}
	roots, err := t.roots(req.Roots)
	if err != nil {
		return ans, err
	}
	ans.Roots = append(ans.Roots, roots...)
	for _, c := range req.Prove {
		p, err := t.prove(c)
		if err != nil {
			return ans, err
		}
		ans.Proofs = append(ans.Proofs, p)
	}
	for _, c := range req.Sign {
		s, err := sign(c)
		if err != nil {
			return ans, err
		}
		ans.Signed = append(ans.Signed, s)
	}
	for _, c := range req.Cosign {
		s, err := cosign(c)
		if err != nil {
			return ans, err
		}
		ans.Cosigned = append(ans.Cosigned, s)
	}
	return ans, nil
}

func main() {
	var req request
	dec := json.NewDecoder(os.Stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "interop: bad request:", err)
		os.Exit(2)
	}
	ans, err := run(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(ans); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		os.Exit(1)
	}
}
