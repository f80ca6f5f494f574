package testvec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// LogText returns n bytes of log-like text: lines of a random time,
// words drawn from a small vocabulary and a random id. No shuffle orders
// it: the automatic mode leaves it unfiltered.
func LogText(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"INFO", "WARN", "connection", "from", "closed", "user", "session", "opened", "for", "request", "GET", "/api/v1/items", "status", "took", "ms", "retry", "host", "node-7"}
	var b bytes.Buffer
	for b.Len() < n {
		fmt.Fprintf(&b, "2024-05-%02d 12:%02d:%02d.%03d", 1+r.IntN(28), r.IntN(60), r.IntN(60), r.IntN(1000))
		for range 4 + r.IntN(8) {
			b.WriteByte(' ')
			b.WriteString(words[r.IntN(len(words))])
		}
		fmt.Fprintf(&b, " id=%d\n", r.IntN(100000))
	}
	return b.Bytes()[:n]
}

// SineI16 returns n samples of a 16-bit sine (amplitude 8000, a period of
// about 1257 samples) with noise below noise, drawn from src, added: a
// little noise leaves a smooth signal, noise of thousands leaves both
// bytes of a sample nearly random, as in recorded audio.
func SineI16(n, noise int, src rand.Source) []byte {
	r := rand.New(src)
	b := make([]byte, n*2)
	for i := range n {
		v := int16(8000*math.Sin(float64(i)/200) + float64(r.IntN(noise)))
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}
