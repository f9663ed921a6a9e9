package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
)

// FerretDB 1.24 applies an update as "query the document, then write it back by _id" with no
// lock in between (both its sqlite and postgresql backends; FerretDB issue #3040). Two
// concurrent $inc on one document lose one, and two conditional findAndModify claims can both
// win. Our code, like any MongoDB code, relies on single-document atomicity. So localdb puts a
// small wire-protocol proxy in front of FerretDB that lets one write command run at a time:
// it takes a global lock when it forwards a write command and releases it when the reply to
// that request comes back. Reads are forwarded untouched and run concurrently.

const (
	opMsg             = 2013
	flagChecksum      = 1 << 0
	flagMoreToCome    = 1 << 1
	maxMessageBytes   = 48 * 1024 * 1024
	messageHeaderSize = 16
)

// writeCommands are the commands that change data or metadata.
var writeCommands = map[string]bool{
	"insert": true, "update": true, "delete": true, "findandmodify": true,
	"create": true, "createindexes": true, "dropindexes": true, "drop": true,
	"dropdatabase": true, "renamecollection": true, "collmod": true,
}

type serializer struct {
	upstream string
	writes   sync.Mutex
}

func (s *serializer) serve(l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go s.handle(conn)
	}
}

func (s *serializer) handle(client net.Conn) {
	defer client.Close()
	up, err := net.Dial("tcp", s.upstream)
	if err != nil {
		return
	}
	defer up.Close()

	var mu sync.Mutex
	holding := map[uint32]bool{} // request ids whose reply will release the write lock

	replies := make(chan struct{})
	go func() {
		defer close(replies)
		defer client.Close()
		for {
			msg, err := readMessage(up)
			if err != nil {
				return
			}
			if _, err := client.Write(msg); err != nil {
				return
			}
			responseTo := binary.LittleEndian.Uint32(msg[8:12])
			mu.Lock()
			held := holding[responseTo]
			delete(holding, responseTo)
			mu.Unlock()
			if held {
				s.writes.Unlock()
			}
		}
	}()

	for {
		msg, err := readMessage(client)
		if err != nil {
			break
		}
		if isAcknowledgedWrite(msg) {
			s.writes.Lock()
			mu.Lock()
			holding[binary.LittleEndian.Uint32(msg[4:8])] = true
			mu.Unlock()
		}
		if _, err := up.Write(msg); err != nil {
			break
		}
	}
	up.Close()
	<-replies

	// A connection that died mid-command must not keep the lock.
	mu.Lock()
	for range holding {
		s.writes.Unlock()
	}
	holding = map[uint32]bool{}
	mu.Unlock()
}

func readMessage(r io.Reader) ([]byte, error) {
	var header [messageHeaderSize]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	length := binary.LittleEndian.Uint32(header[0:4])
	if length < messageHeaderSize || length > maxMessageBytes {
		return nil, fmt.Errorf("bad message length %d", length)
	}
	msg := make([]byte, length)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[messageHeaderSize:]); err != nil {
		return nil, err
	}
	return msg, nil
}

// isAcknowledgedWrite reports whether msg is an OP_MSG write command that expects a reply.
func isAcknowledgedWrite(msg []byte) bool {
	if binary.LittleEndian.Uint32(msg[12:16]) != opMsg || len(msg) < messageHeaderSize+5 {
		return false
	}
	flags := binary.LittleEndian.Uint32(msg[16:20])
	if flags&flagMoreToCome != 0 {
		return false
	}
	name, err := commandName(msg, flags)
	return err == nil && writeCommands[strings.ToLower(name)]
}

// commandName is the first key of the OP_MSG body section (kind 0).
func commandName(msg []byte, flags uint32) (string, error) {
	end := len(msg)
	if flags&flagChecksum != 0 {
		end -= 4
	}
	for i := messageHeaderSize + 4; i < end; {
		kind := msg[i]
		i++
		if i+4 > end {
			break
		}
		size := int(binary.LittleEndian.Uint32(msg[i : i+4]))
		if size < 5 || i+size > end {
			break
		}
		if kind == 0 {
			doc := msg[i : i+size]
			// doc: int32 length, then elements: type byte, cstring name, value.
			nameEnd := strings.IndexByte(string(doc[5:]), 0)
			if nameEnd < 0 {
				break
			}
			return string(doc[5 : 5+nameEnd]), nil
		}
		i += size // kind 1: a document sequence, whose size includes itself
	}
	return "", errors.New("no body section")
}
