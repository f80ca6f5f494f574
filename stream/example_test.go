package stream_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/stream"
)

// Compress a buffer of float64 telemetry and read it back, as with gzip.
func Example() {
	values := make([]byte, 8*100000)
	for i := range 100000 {
		v := uint64(1700000000 + i)
		for b := range 8 {
			values[8*i+b] = byte(v >> (8 * b))
		}
	}
	var frame bytes.Buffer
	w, err := stream.NewWriter(&frame, stream.WithCodec(codec.LZ4), stream.WithTypeSize(8))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := w.Write(values); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := stream.NewReader(&frame)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	back, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(back, values), frame.Len() < len(values)/10)
	// Output: true true
}

// Wrap a file: io.Copy into the Writer, and random access from the file.
func Example_file() {
	dir, _ := os.MkdirTemp("", "blosc2-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log.b2frame")
	logs := bytes.Repeat([]byte("2024-01-01 12:00:00 INFO GET /api/v1/items status=200\n"), 20000)

	f, _ := os.Create(path)
	w, _ := stream.NewWriter(f, stream.WithCodec(codec.Zstd), stream.WithTypeSize(1), stream.WithFilters())
	if _, err := io.Copy(w, bytes.NewReader(logs)); err != nil {
		log.Fatal(err)
	}
	w.Close() // the header is patched: f can seek
	f.Close()

	f, _ = os.Open(path)
	defer f.Close()
	r, err := stream.NewReader(f) // *os.File: Seek and ReadAt work
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	line := make([]byte, 54)
	if _, err := r.ReadAt(line, 54*1234); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s", line)
	// Output: 2024-01-01 12:00:00 INFO GET /api/v1/items status=200
}

// Stream over a pipe (a socket behaves the same): the frame's header
// stays unpatched and the Reader reads it front to back.
func Example_pipe() {
	pr, pw := io.Pipe()
	go func() {
		w, _ := stream.NewWriter(pw, stream.WithFilters(blosc2.Filter{ID: blosc2.Shuffle}), stream.WithTypeSize(4))
		for i := range 1000 {
			fmt.Fprintf(w, "sample %d\n", i)
		}
		pw.CloseWithError(w.Close())
	}()
	r, err := stream.NewReader(pr)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	n, err := io.Copy(io.Discard, r)
	fmt.Println(n, err)
	// Output: 10890 <nil>
}

// One-shot helpers for small buffers.
func ExampleEncodeAll() {
	frame, err := stream.EncodeAll([]byte("hello, blosc2 hello, blosc2 hello, blosc2"), nil)
	if err != nil {
		log.Fatal(err)
	}
	data, err := stream.DecodeAll(frame, nil)
	fmt.Println(string(data), err)
	// Output: hello, blosc2 hello, blosc2 hello, blosc2 <nil>
}

// Send telemetry over a TCP connection and flush it: the receiver gets
// every flushed byte at once, while the sender goes on. On a connection
// each Flush ends a frame; the receiver reads the frames as one stream.
func Example_flush() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			log.Fatal(err)
		}
		defer conn.Close()
		w, _ := stream.NewWriter(conn, stream.WithCodec(codec.LZ4))
		for _, line := range []string{"temp=21.5\n", "temp=21.7\n"} {
			w.Write([]byte(line))
			w.Flush() // the receiver's Read returns this line now
		}
		w.Close()
	}()
	conn, err := ln.Accept()
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	r, _ := stream.NewReader(conn)
	defer r.Close()
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Read(buf)
		fmt.Printf("%q\n", buf[:n])
		if err != nil {
			break
		}
	}
	// Output:
	// "temp=21.5\n"
	// "temp=21.7\n"
	// ""
}

// Reuse one Writer and one Reader for many messages: Reset keeps their
// options and buffers, as gzip.Writer.Reset and gzip.Reader.Reset do.
func Example_reset() {
	w, err := stream.NewWriter(io.Discard, stream.WithConcurrency(1))
	if err != nil {
		log.Fatal(err)
	}
	var frames [][]byte
	for _, msg := range []string{"first message", "second message"} {
		var out bytes.Buffer
		w.Reset(&out) // a new frame to out, same options
		w.Write([]byte(msg))
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		frames = append(frames, out.Bytes())
	}
	r, err := stream.NewReader(bytes.NewReader(frames[0]))
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for _, f := range frames {
		if err := r.Reset(bytes.NewReader(f)); err != nil {
			log.Fatal(err)
		}
		msg, err := io.ReadAll(r)
		fmt.Printf("%s %v\n", msg, err)
	}
	// Output:
	// first message <nil>
	// second message <nil>
}

// Read files appended to with >> or joined with cat: like gzip, a Reader
// reads every frame of a concatenation.
func ExampleNewReader_concatenated() {
	a, _ := stream.EncodeAll([]byte("monday\n"), nil)
	b, _ := stream.EncodeAll([]byte("tuesday\n"), nil)
	r, _ := stream.NewReader(io.MultiReader(bytes.NewReader(a), bytes.NewReader(b)))
	defer r.Close()
	all, _ := io.ReadAll(r)
	fmt.Printf("%s", all)
	// Output:
	// monday
	// tuesday
}

// Decode a frame held in memory, refusing one that declares more than
// the caller is ready to hold: a frame of a few hundred bytes can declare
// gigabytes of zeros.
func ExampleDecodeAll() {
	frame, err := stream.EncodeAll(make([]byte, 1<<20), nil) // 1 MiB of zeros
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(frame) < 1000)

	data, err := stream.DecodeAll(frame, nil, stream.WithMaxMemory(64<<10))
	fmt.Println(len(data), errors.Is(err, blosc2.ErrTooLarge))

	data, err = stream.DecodeAll(frame, nil, stream.WithMaxMemory(1<<20))
	fmt.Println(len(data), err)
	// Output:
	// true
	// 0 true
	// 1048576 <nil>
}
