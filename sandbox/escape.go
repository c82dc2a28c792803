package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// pathEscapes is the error os.Root returns when a name or a symlink leads outside the
// root. The os package does not export it, so it is taken once from a lexical check that
// touches no file, letting callers use errors.Is instead of matching message text.
var pathEscapes = sync.OnceValue(func() error {
	r, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return nil
	}
	defer r.Close()
	_, err = r.Lstat("../x")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return nil
})

// IsEscape reports whether err is os.Root refusing a path that leads outside its root
// (through "..", an absolute name, or a symlink).
func IsEscape(err error) bool {
	esc := pathEscapes()
	return esc != nil && errors.Is(err, esc)
}
