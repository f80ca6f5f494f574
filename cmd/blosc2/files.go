package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// This file holds what keeps a user's data safe: an output is written
// under a temporary name beside its final one, synced, given the input's
// metadata and renamed into place, and only then is the input removed.
// Nothing that existed before the run is ever removed, except an input
// the user asked to replace and an output file -f asked to overwrite
// (by rename, so the old one stays whole until the new one is complete).

// pending are the temporary outputs this process created and has not
// renamed into place yet; a signal removes them before the process exits.
var pending = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// removePending removes every temporary output and keeps the lock, so that
// no output is renamed into place after it: it is called on the way out.
func removePending() {
	pending.Lock()
	for p := range pending.paths {
		os.RemoveAll(p) // only paths this run created are in the set
	}
}

// signalExitCode is the status a shell reports for a process killed by
// s: 128 + its number (130 for SIGINT, 143 for SIGTERM).
func signalExitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// errSameFile is checkOutput's refusal to write over the input.
var errSameFile = errors.New("input and output are the same file")

// checkOutput refuses an output that would destroy something: the input
// itself (compared by device and inode, so through hard links, symlinks
// and other spellings of the path), a directory (never replaced, even with
// -f), or an existing file without -f. direct reports an existing output
// that is not a regular file (/dev/null, a FIFO): it is written in place,
// because renaming over it would replace the device node itself.
func checkOutput(out string, in os.FileInfo, force bool) (direct bool, err error) {
	st, err := os.Stat(out)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		if _, lerr := os.Lstat(out); lerr == nil && !force { // a dangling symlink
			return false, fmt.Errorf("%s already exists; not overwritten (use -f)", out)
		}
		return false, nil
	}
	if in != nil && os.SameFile(in, st) {
		return false, fmt.Errorf("%w (%s)", errSameFile, out)
	}
	if st.IsDir() {
		return false, fmt.Errorf("%s is a directory; not overwritten", out)
	}
	if !st.Mode().IsRegular() {
		return true, nil
	}
	if !force {
		return false, fmt.Errorf("%s already exists; not overwritten (use -f)", out)
	}
	return false, nil
}

// fileSink is an output file: a temporary file beside the final name until
// commit renames it into place, or an existing non-regular file written
// directly.
type fileSink struct {
	*os.File
	final string
	tmp   string // "" when writing directly
}

// createFileSink opens the output for out (checked by checkOutput).
func createFileSink(out string, direct bool) (*fileSink, error) {
	if direct {
		f, err := os.OpenFile(out, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &fileSink{File: f, final: out}, nil
	}
	pending.Lock()
	defer pending.Unlock()
	f, err := os.CreateTemp(filepath.Dir(out), tempPattern(out))
	if err != nil {
		return nil, err
	}
	pending.paths[f.Name()] = true
	return &fileSink{File: f, final: out, tmp: f.Name()}, nil
}

// tempPattern names temporaries ".NAME.blosc2-RANDOM": hidden, and telling
// whose they are if a power cut leaves one behind.
func tempPattern(out string) string {
	return "." + filepath.Base(out) + ".blosc2-*"
}

// commit makes the output durable under its final name: fsync, metadata
// from src (nil: the defaults a new file gets), close, rename, fsync of the
// directory. After commit returns nil the output survives a crash.
func (s *fileSink) commit(src os.FileInfo) error {
	if s.tmp == "" {
		return s.Close()
	}
	if err := s.Sync(); err != nil {
		s.abort()
		return err
	}
	if err := setMeta(s.File, s.tmp, src, false); err != nil {
		s.abort()
		return err
	}
	if err := s.Close(); err != nil {
		s.abort()
		return err
	}
	if err := renameIntoPlace(s.tmp, s.final); err != nil {
		s.abort()
		return err
	}
	return nil
}

// abort closes the output and removes it if this run created it.
func (s *fileSink) abort() {
	s.Close()
	if s.tmp != "" {
		pending.Lock()
		os.Remove(s.tmp)
		delete(pending.paths, s.tmp)
		pending.Unlock()
	}
}

// renameIntoPlace renames the temporary tmp to final and syncs the
// directory holding both, so the new name is on disk before the input is
// removed. The lock keeps a signal from removing tmp half-way.
func renameIntoPlace(tmp, final string) error {
	pending.Lock()
	err := os.Rename(tmp, final)
	if err == nil {
		delete(pending.paths, tmp)
	}
	pending.Unlock()
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

// syncDir fsyncs a directory, making the renames and creations in it
// durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	// Some file systems cannot sync a directory; the rename is then as
	// durable as they make it.
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}

// dirSink is a sparse-frame output: a temporary directory beside the final
// name, renamed into place by commit.
type dirSink struct {
	final, tmp string
}

func createDirSink(out string) (*dirSink, error) {
	pending.Lock()
	defer pending.Unlock()
	tmp, err := os.MkdirTemp(filepath.Dir(out), tempPattern(out))
	if err != nil {
		return nil, err
	}
	pending.paths[tmp] = true
	return &dirSink{final: out, tmp: tmp}, nil
}

// commit gives the directory the metadata of src and renames it into
// place (the frame writer has synced the files inside).
func (s *dirSink) commit(src os.FileInfo) error {
	d, err := os.Open(s.tmp)
	if err == nil {
		err = setMeta(d, s.tmp, src, true)
		if serr := d.Sync(); err == nil {
			err = serr
		}
		d.Close()
	}
	if err == nil {
		err = renameIntoPlace(s.tmp, s.final)
	}
	if err != nil {
		s.abort()
	}
	return err
}

func (s *dirSink) abort() {
	pending.Lock()
	os.RemoveAll(s.tmp) // created by this run
	delete(pending.paths, s.tmp)
	pending.Unlock()
}

// compressedName is FILE.b2frame (or another extension).
func compressedName(in, ext string) (string, error) {
	if strings.HasSuffix(in, ext) {
		return "", warningf("already has the %s suffix; unchanged (use -o or -c)", ext)
	}
	return in + ext, nil
}

// knownSuffixes are the extensions decompress strips.
var knownSuffixes = []string{".b2frame", ".b2nd", ".cdata", ".b2"}

func decompressedName(in string) (string, error) {
	trimmed := strings.TrimSuffix(in, "/")
	for _, s := range knownSuffixes {
		if strings.HasSuffix(trimmed, s) && len(trimmed) > len(s) {
			return strings.TrimSuffix(trimmed, s), nil
		}
	}
	return "", warningf("unknown suffix (%s); ignored (use -o or -c)", strings.Join(knownSuffixes, ", "))
}
