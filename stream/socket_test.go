package stream

import (
	"bytes"
	"errors"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
)

// tcpPair connects a client and a server socket on 127.0.0.1.
func tcpPair(t *testing.T) (send, recv net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	send, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	recv, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { send.Close(); recv.Close() })
	return send, recv
}

// TestFlushOverTCP: after the sender's Flush, the receiver's Reader
// returns every byte written so far while the sender waits, through Read
// with a large buffer and through WriteTo (io.Copy), at receiver
// concurrency 1 and 3; then the stream ends cleanly at the sender's Close.
func TestFlushOverTCP(t *testing.T) {
	data := testData(t)
	parts := [][]byte{data[:1000], data[1000:150000], data[150000:150008], data[150008:]}
	for _, conc := range []int{1, 3} {
		for _, viaCopy := range []bool{false, true} {
			send, recv := tcpPair(t)
			w, err := NewWriter(send, WithChunkSize(64<<10), WithCodec(blosc2.LZ4), WithConcurrency(2))
			if err != nil {
				t.Fatal(err)
			}
			// The sender writes a part, flushes, and waits until the
			// receiver has it all before writing the next.
			ack := make(chan struct{})
			sendErr := make(chan error, 1)
			go func() {
				for _, p := range parts {
					if _, err := w.Write(p); err != nil {
						sendErr <- err
						return
					}
					if err := w.Flush(); err != nil {
						sendErr <- err
						return
					}
					select {
					case <-ack:
					case <-time.After(10 * time.Second):
						sendErr <- errors.New("receiver never got the flushed part")
						return
					}
				}
				err := w.Close()
				send.Close()
				sendErr <- err
			}()
			recv.SetReadDeadline(time.Now().Add(20 * time.Second))
			r, err := NewReader(recv, WithReaderConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			arrived := make(chan []byte, 64)
			if viaCopy {
				go func() {
					io.Copy(notifyWriter(arrived), r)
					close(arrived)
				}()
			}
			want := 0
			for i, p := range parts {
				want += len(p)
				if viaCopy {
					for got.Len() < want {
						p, ok := <-arrived
						if !ok {
							t.Fatalf("conc %d copy: stream ended at %d bytes, want %d", conc, got.Len(), want)
						}
						got.Write(p)
					}
				} else {
					buf := make([]byte, 1<<20)
					for got.Len() < want {
						n, err := r.Read(buf)
						if err != nil {
							t.Fatalf("conc %d: part %d: Read after %d of %d bytes: %v", conc, i, got.Len(), want, err)
						}
						got.Write(buf[:n])
					}
				}
				if got.Len() != want {
					t.Fatalf("conc %d: %d bytes, want %d", conc, got.Len(), want)
				}
				ack <- struct{}{}
			}
			if err := <-sendErr; err != nil {
				t.Fatal(err)
			}
			if viaCopy {
				for p := range arrived {
					got.Write(p)
				}
			} else if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.EOF {
				t.Fatalf("after the last frame: %d, %v", n, err)
			}
			if !bytes.Equal(got.Bytes(), data) {
				t.Fatalf("conc %d copy %v: received bytes differ", conc, viaCopy)
			}
			r.Close()
		}
	}
}

// notifyWriter sends a copy of every write to the receiving test.
type notifyWriter chan<- []byte

func (n notifyWriter) Write(p []byte) (int, error) {
	n <- bytes.Clone(p)
	return len(p), nil
}

// TestFlushWithoutData: Flush with nothing new writes nothing, and Close
// after a Flush adds no empty frame.
func TestFlushWithoutData(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(struct{ io.Writer }{&buf})
	w.Write([]byte("abc"))
	w.Flush()
	n := buf.Len()
	w.Flush()
	if err := w.Close(); err != nil || buf.Len() != n {
		t.Fatalf("Flush and Close with nothing new wrote %d bytes (%v)", buf.Len()-n, err)
	}
	got, err := DecodeAll(buf.Bytes(), nil)
	if err != nil || string(got) != "abc" {
		t.Fatalf("%q %v", got, err)
	}
}

// TestCloseWhileSourceBlocks: Close returns at once while the source's
// Read is blocked, a Read waiting in another goroutine returns
// blosc2.ErrClosed, and the read-ahead goroutine ends when the source
// does (at once with WithCloseSource).
func TestCloseWhileSourceBlocks(t *testing.T) {
	data := testData(t)[:150000]
	frame := unpatchedFrame(t, data, WithChunkSize(50000))
	for _, conc := range []int{1, 3} {
		for _, closeSrc := range []bool{false, true} {
			base := runtime.NumGoroutine()
			pr, pw := io.Pipe()
			go pw.Write(frame[:len(frame)/2]) // then the writer goes silent
			r, err := NewReader(pr, WithReaderConcurrency(conc), WithCloseSource(closeSrc))
			if err != nil {
				t.Fatal(err)
			}
			readDone := make(chan error, 1)
			go func() {
				_, err := io.Copy(io.Discard, r)
				readDone <- err
			}()
			time.Sleep(50 * time.Millisecond) // the Read is now blocked on the pipe
			closed := make(chan error, 1)
			go func() { closed <- r.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatalf("conc %d: Close: %v", conc, err)
				}
			case <-time.After(2 * time.Second):
				t.Fatalf("conc %d: Close blocked", conc)
			}
			if conc > 1 || closeSrc {
				select {
				case err := <-readDone:
					if err == nil {
						t.Fatalf("conc %d: the pending Read ended without an error", conc)
					}
				case <-time.After(2 * time.Second):
					t.Fatalf("conc %d close-source %v: the pending Read did not return after Close", conc, closeSrc)
				}
			}
			if _, err := r.Read(make([]byte, 10)); !errors.Is(err, blosc2.ErrClosed) && !closeSrc {
				// With one goroutine and the source still open, Read is
				// still inside the source: skip this check then.
				if conc > 1 {
					t.Fatalf("conc %d: Read after Close: %v", conc, err)
				}
			}
			pw.CloseWithError(errors.New("writer gone")) // the source returns now
			if conc == 1 && !closeSrc {
				<-readDone
			}
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > base {
				t.Fatalf("conc %d close-source %v: %d goroutines, %d before", conc, closeSrc, n, base)
			}
		}
	}
}
