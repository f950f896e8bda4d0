// Copyright 2018 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !js

// wapii's replacement of net/http/roundtrip.go (compiled with `go build -overlay`): every
// Transport's round trip checks the request as Transport.roundTrip does, serialises it with the
// library's own request writer (the bytes a Transport writes on a connection, in absolute form, with
// the headers the Transport adds itself), writes them to descriptor 3 (the sandbox's capture
// channel, read by wapii outside the program's process) and ends the program: the first request is
// the one judged. When the program's requests are answered (the sandbox names the reply channel's
// descriptor in $WAPII_REPLIES), the round trip instead reads the answer from that channel with
// the library's own response reader (ReadResponse: status, headers, body as a server's) and the
// program runs on. No connection is dialled, whatever Dialer, DialContext or TLS settings the
// Transport holds.

package http

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	_ "unsafe" // for linkname
)

// RoundTrip should be an internal detail,
// but widely used packages access it using linkname.
//
//go:linkname badRoundTrip net/http.(*Transport).RoundTrip
func badRoundTrip(*Transport, *Request) (*Response, error)

// wapiiMaxBody is the most body bytes a request may carry to the capture channel.
const wapiiMaxBody = 4 << 20

// wapiiChannel is the descriptor of the capture channel.
const wapiiChannel = 3

// RoundTrip implements the [RoundTripper] interface.
func (t *Transport) RoundTrip(req *Request) (*Response, error) {
	if t == nil {
		panic("transport is nil")
	}
	return t.wapiiRoundTrip(req)
}

func (t *Transport) wapiiRoundTrip(req *Request) (*Response, error) {
	if req.URL == nil {
		req.closeBody()
		return nil, errors.New("http: nil Request.URL")
	}
	if req.Header == nil {
		req.closeBody()
		return nil, errors.New("http: nil Request.Header")
	}
	scheme := req.URL.Scheme
	isHTTP := scheme == "http" || scheme == "https"
	if isHTTP {
		if err := validateHeaders(req.Header); err != "" {
			req.closeBody()
			return nil, fmt.Errorf("net/http: invalid header %s", err)
		}
		if err := validateHeaders(req.Trailer); err != "" {
			req.closeBody()
			return nil, fmt.Errorf("net/http: invalid trailer %s", err)
		}
	}
	if !isHTTP {
		req.closeBody()
		return nil, badStringError("unsupported protocol scheme", scheme)
	}
	if req.Method != "" && !validMethod(req.Method) {
		req.closeBody()
		return nil, fmt.Errorf("net/http: invalid method %q", req.Method)
	}
	if req.URL.Host == "" {
		req.closeBody()
		return nil, errors.New("http: no Host in request URL")
	}
	var body []byte
	if req.Body != nil && req.Body != NoBody {
		read, err := io.ReadAll(io.LimitReader(req.Body, wapiiMaxBody+1))
		req.closeBody()
		if err != nil {
			return nil, err
		}
		if len(read) > wapiiMaxBody {
			return nil, errors.New("net/http: the request body is larger than the capture channel takes")
		}
		body = read
	}
	// the body as a known length: what a Transport would frame with chunks is sent de-chunked
	sent := *req
	sent.TransferEncoding = nil
	sent.Body, sent.ContentLength = nil, 0
	if len(body) > 0 {
		sent.Body, sent.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	extra := Header{}
	if !t.DisableCompression && req.Header.Get("Accept-Encoding") == "" && req.Header.Get("Range") == "" &&
		req.Method != "HEAD" {
		extra.Set("Accept-Encoding", "gzip")
	}
	if t.DisableKeepAlives && !req.wantsClose() && !isProtocolSwitchHeader(req.Header) {
		extra.Set("Connection", "close")
	}
	var wire bytes.Buffer
	if err := sent.write(&wire, true, extra, nil); err != nil {
		return nil, err
	}
	wapiiExchange.Lock()
	defer wapiiExchange.Unlock()
	if err := wapiiSend(wire.Bytes()); err != nil {
		return nil, err
	}
	if wapiiReplies == nil {
		fd, err := strconv.Atoi(os.Getenv("WAPII_REPLIES"))
		if err != nil || fd < 0 {
			os.Exit(0) // nothing answers: the first request is the one judged
		}
		wapiiReplies = bufio.NewReader(os.NewFile(uintptr(fd), "wapii-replies"))
	}
	resp, err := ReadResponse(wapiiReplies, req)
	if err != nil {
		return nil, fmt.Errorf("net/http: no answer to the request: %v", err)
	}
	// the body is read off the channel now, so that the next answer starts where this one ends
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

// wapiiExchange keeps one request and its answer together on the channels.
var wapiiExchange sync.Mutex

// wapiiReplies reads the answers (nil until the first request).
var wapiiReplies *bufio.Reader

func wapiiSend(data []byte) error {
	for len(data) > 0 {
		n, err := syscall.Write(wapiiChannel, data)
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return fmt.Errorf("net/http: the request could not be sent: %v", err)
		}
		data = data[n:]
	}
	return nil
}
