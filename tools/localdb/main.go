// Command localdb runs an embedded FerretDB 1.24 (MongoDB wire protocol over SQLite)
// for Emporium's development default and test suite.
//
// Usage: localdb -data DIR [-listen 127.0.0.1:27017] [-exit-with-parent]
//
// When the listener is ready it prints one line, "ready <mongodb url>", on stdout.
// SIGTERM or SIGINT shuts it down cleanly (open connections closed, SQLite files synced).
// FerretDB is built with the patches in patches/ (see its README): among them, one write
// command at a time, which gives the single-document atomicity MongoDB guarantees and
// FerretDB 1.24 lacks.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	// The heap is small; collect it a quarter as often as Go's default (GOGC=100), which spent
	// ~7% of the database's CPU under bench:webhooks' burst, for a few more megabytes of memory.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}

	dataDir := flag.String("data", "", "data directory for the SQLite files (created if missing)")
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (port 0 picks a free port)")
	logLevel := flag.String("log-level", "error", "log level: debug, info, warn or error")
	withParent := flag.Bool("exit-with-parent", false, "shut down when the process that started this one goes away")
	postgresURL := flag.String("postgresql", "", "use FerretDB's PostgreSQL handler with this URL instead of SQLite (for measurements)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile (go tool pprof) to this file until shutdown")
	flag.Parse()

	if *cpuProfile != "" {
		stopProfile := startCPUProfile(*cpuProfile)
		defer stopProfile()
	}

	if *dataDir == "" {
		fail("-data is required")
	}
	abs, err := filepath.Abs(*dataDir)
	if err != nil {
		fail(err.Error())
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		fail(err.Error())
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail("bad -log-level: " + err.Error())
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// FerretDB listens on -listen itself (port 0: a free port, read back below).
	// Its patched handler runs one write command at a time (patches/README.md).
	handler := "sqlite"
	if *postgresURL != "" {
		handler = "postgresql"
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       handler,
		PostgreSQLURL: *postgresURL,
		// WAL (FerretDB's default) with synchronous=NORMAL: commits do not wait for an fsync;
		// a power cut can lose the last commits, never the database's integrity. Right for a
		// development and test database (inserts ~2,000/s → ~4,200/s here).
		// A checkpoint every 10,000 WAL pages instead of 1,000: the commit that triggers one copies
		// the pages back into the database under the write lock, and the hot pages (the ends of
		// the busy tables and indexes) are copied once per checkpoint however often they were
		// rewritten. The WAL grows to ~40 MB between checkpoints.
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(normal)&_pragma=wal_autocheckpoint(10000)",
	})
	if err != nil {
		fail(err.Error())
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	if *withParent {
		go watchParent(stop)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()

	// New has opened the listener, so the address (with the port picked for :0) is known.
	fmt.Printf("ready %s\n", f.MongoDBURI())

	<-done
	fmt.Fprintln(os.Stderr, "localdb: stopped")
}

// watchParent cancels when this process is re-parented, i.e. its starter died without
// stopping it (a SIGKILLed test run, say), so no orphaned database keeps its port.
func watchParent(cancel context.CancelFunc) {
	parent := os.Getppid()
	for range time.Tick(500 * time.Millisecond) {
		if os.Getppid() != parent {
			cancel()
			return
		}
	}
}

// startCPUProfile profiles the whole process until the returned function is called (at shutdown).
func startCPUProfile(path string) func() {
	f, err := os.Create(path)
	if err != nil {
		fail(err.Error())
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fail(err.Error())
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "localdb: "+msg)
	os.Exit(1)
}
