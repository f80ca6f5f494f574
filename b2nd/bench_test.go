package b2nd

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/internal/testvec"
)

type benchArray struct {
	name   string
	shape  []int64
	dtype  string
	cs, bs []int32
	data   []byte
}

// benchArrays are ERA5 hourly temperatures (744×33×49 float32) when
// ../shared/data is there, else a smooth synthetic grid of the same shape.
func benchArrays(b *testing.B) []benchArray {
	shape := []int64{744, 33, 49}
	var data []byte
	name := "synthetic_744x33x49_f4"
	if d := testvec.SharedData(); d != "" {
		if raw, err := os.ReadFile(filepath.Join(d, "era5_t2m_uk_2019-03.f32.bin")); err == nil {
			data, name = raw, "era5_t2m"
		}
	}
	if data == nil {
		data = make([]byte, 0, 744*33*49*4)
		for i := range uint64(744 * 33 * 49) {
			v := math.Float32bits(float32(testvec.Smooth(1, i)))
			data = append(data, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
	}
	return []benchArray{
		{name + "/chunks_24x33x49", shape, "<f4", []int32{24, 33, 49}, []int32{2, 33, 49}, data},
		{name + "/chunks_64x16x16", shape, "<f4", []int32{64, 16, 16}, []int32{16, 8, 8}, data},
	}
}

func (ba *benchArray) frame(b *testing.B) []byte {
	m := &memFile{}
	w, err := NewWriter(m, ba.shape, ba.dtype, WithChunkShape(ba.cs...), WithBlockShape(ba.bs...))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Write(ba.data); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return m.b
}

// BenchmarkRead reads whole arrays and small slices from in-memory frames.
func BenchmarkRead(b *testing.B) {
	for _, ba := range benchArrays(b) {
		f := ba.frame(b)
		for _, threads := range []int{1, 2} {
			a, err := NewReaderBytes(f, WithConcurrency(threads))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/all/threads%d", ba.name, threads), func(b *testing.B) {
				b.SetBytes(int64(len(ba.data)))
				b.ReportAllocs()
				out := make([]byte, len(ba.data))
				for b.Loop() {
					if err := a.ReadSliceInto(out, make([]int64, 3), ba.shape); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		a, err := NewReaderBytes(f)
		if err != nil {
			b.Fatal(err)
		}
		// One time series: a single grid point over all 744 hours.
		b.Run(ba.name+"/timeseries", func(b *testing.B) {
			out := make([]byte, 744*4)
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if err := a.ReadSliceInto(out, []int64{0, 16, 24}, []int64{744, 17, 25}); err != nil {
					b.Fatal(err)
				}
			}
		})
		// One map: a single hour.
		b.Run(ba.name+"/map", func(b *testing.B) {
			out := make([]byte, 33*49*4)
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if err := a.ReadSliceInto(out, []int64{100, 0, 0}, []int64{101, 33, 49}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite writes whole arrays into in-memory frames.
func BenchmarkWrite(b *testing.B) {
	for _, ba := range benchArrays(b) {
		b.Run(ba.name, func(b *testing.B) {
			b.SetBytes(int64(len(ba.data)))
			b.ReportAllocs()
			for b.Loop() {
				ba.frame(b)
			}
		})
	}
}
