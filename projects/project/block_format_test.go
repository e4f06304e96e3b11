package project

import "testing"

func TestFormatGo(t *testing.T) {
	t.Parallel()
	got, err := FormatGo("b.go", []byte("package b\nfunc f() int {\n  x:=1+2\n    return x}\n"))
	if want := "package b\n\nfunc f() int {\n\tx := 1 + 2\n\treturn x\n}\n"; err != nil || string(got) != want {
		t.Fatalf("got %q %v, want %q", got, err, want)
	}
	broken := []byte("package b\nfunc f( {\n")
	if got, err := FormatGo("b.go", broken); err == nil || string(got) != string(broken) {
		t.Fatalf("unparsable source: %q %v; want it unchanged with an error", got, err)
	}
}
