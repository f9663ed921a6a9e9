// Command localdb runs an embedded FerretDB 1.24 (MongoDB wire protocol over SQLite)
// for Emporium's development default and test suite.
//
// Usage: localdb -data DIR [-listen 127.0.0.1:27017] [-exit-with-parent]
//
// When the listener is ready it prints one line, "ready <mongodb url>", on stdout.
// SIGTERM or SIGINT shuts it down cleanly (open connections closed, SQLite files synced).
// Clients reach FerretDB through a proxy that runs one write command at a time, which gives
// the single-document atomicity MongoDB guarantees and FerretDB 1.24 lacks (serialize.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	dataDir := flag.String("data", "", "data directory for the SQLite files (created if missing)")
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (port 0 picks a free port)")
	logLevel := flag.String("log-level", "error", "log level: debug, info, warn or error")
	withParent := flag.Bool("exit-with-parent", false, "shut down when the process that started this one goes away")
	flag.Parse()

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

	// Clients connect to the serializing proxy on -listen; FerretDB itself listens on a
	// private loopback port behind it (see serialize.go).
	public, err := net.Listen("tcp", *listen)
	if err != nil {
		fail(err.Error())
	}
	addr := public.Addr().String()
	inner, err := pickAddress("127.0.0.1:0")
	if err != nil {
		fail(err.Error())
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: inner},
		Logger:   logger,
		Handler:  "sqlite",
		// WAL (FerretDB's default) with synchronous=NORMAL: commits do not wait for an fsync;
		// a power cut can lose the last commits, never the database's integrity. Right for a
		// development and test database (inserts ~2,000/s → ~4,200/s here).
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(normal)",
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

	if err := waitForListener(inner, 10*time.Second); err != nil {
		fail(err.Error())
	}
	go (&serializer{upstream: inner}).serve(public)
	fmt.Printf("ready mongodb://%s/\n", addr)

	<-done
	public.Close()
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

func pickAddress(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("bad -listen %q: %w", listen, err)
	}
	if port != "0" {
		return listen, nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func waitForListener(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("listener on %s not ready after %s: %w", addr, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "localdb: "+msg)
	os.Exit(1)
}
