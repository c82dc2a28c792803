package sandbox

import "context"

// OutputFunc receives a command's output while it runs: stream is "stdout" or
// "stderr", chunk a piece as the process wrote it (not split on lines). It is called
// from one goroutine per stream and must not block for long.
type OutputFunc func(stream string, chunk []byte)

type outputKey struct{}

// WithOutput asks the sandbox to stream the output of foreground commands run with ctx
// to fn, besides capturing it in the result. koda.Sandbox's RunCommand keeps its
// signature; providers read the option with OutputFrom.
func WithOutput(ctx context.Context, fn OutputFunc) context.Context {
	return context.WithValue(ctx, outputKey{}, fn)
}

// OutputFrom returns the OutputFunc set by WithOutput, or nil.
func OutputFrom(ctx context.Context) OutputFunc {
	fn, _ := ctx.Value(outputKey{}).(OutputFunc)
	return fn
}
