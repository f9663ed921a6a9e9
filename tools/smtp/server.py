"""The tests' SMTP server: aiosmtpd (tools/smtp/requirements.txt) with a handler of our own.

    python3 tools/smtp/server.py --maildir DIR [--host 127.0.0.1] [--port 0] [--auth USER:PASSWORD]

Listens (port 0: a free one) and prints `smtp: listening on HOST:PORT` once it does. Each
message accepted is kept in a Maildir per recipient, DIR/<address>/ (new/ holds the messages,
with `Delivered-To` and `Return-Path` added on top), and what happened to the recipient's mail
is appended to DIR/<address>/events, a line each: `rcpt 451`, `rcpt 550`, `data held`,
`data dropped`, `data 250 <Message-ID>`. With --auth, a client must log in (AUTH PLAIN or LOGIN,
allowed without TLS: it is a loopback test server).

The recipient's local part tells the server how to answer, by dot-separated words in it:
  tempfail<N>  the first N deliveries to the address get `451` at RCPT (then it accepts);
  reject       every delivery gets `550` at RCPT;
  hold<S>      the first message to the address: the reply to DATA waits S seconds.
A message whose client is gone before the final reply is not kept (RFC 5321 4.1.1.4: the
responsibility for it passes with the 250): it is logged as `data dropped`.
"""

import argparse
import asyncio
import mailbox
import os
import re
import signal
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

WORDS = re.compile(r"^(tempfail(\d+)|reject|hold(\d+))$")


def rules(address):
    """The words of the address's local part that are rules: {'tempfail': N, 'reject': True, 'hold': S}."""
    found = {}
    for word in address.rsplit("@", 1)[0].lower().replace("+", ".").split("."):
        match = WORDS.match(word)
        if not match:
            continue
        if match.group(2):
            found["tempfail"] = int(match.group(2))
        elif match.group(3):
            found["hold"] = int(match.group(3))
        else:
            found["reject"] = True
    return found


def folder_name(address):
    return re.sub(r"[^a-z0-9._+@-]", "_", address.lower())


class Handler:
    def __init__(self, root):
        self.root = root
        self.tempfailed = {}
        self.held = set()

    def maildir(self, address):
        """The recipient's Maildir (made with its tmp/, new/ and cur/ on first use)."""
        folder = os.path.join(self.root, folder_name(address))
        for sub in ("tmp", "new", "cur"):
            os.makedirs(os.path.join(folder, sub), exist_ok=True)
        return folder

    def log(self, address, line):
        with open(os.path.join(self.maildir(address), "events"), "a", encoding="utf-8") as events:
            events.write(line + "\n")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        said = rules(address)
        if said.get("reject"):
            self.log(address, "rcpt 550")
            return f"550 5.1.1 <{address}>: Recipient address rejected: no such mailbox here"
        failures = self.tempfailed.get(address.lower(), 0)
        if failures < said.get("tempfail", 0):
            self.tempfailed[address.lower()] = failures + 1
            self.log(address, "rcpt 451")
            return f"451 4.7.1 <{address}>: Recipient address deferred: try again later"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        holds = [(a, rules(a).get("hold", 0)) for a in envelope.rcpt_tos if a.lower() not in self.held]
        hold = max((s for _, s in holds), default=0)
        if hold:
            for address, _ in holds:
                self.held.add(address.lower())
                self.log(address, "data held")
            try:
                await asyncio.sleep(hold)
            except asyncio.CancelledError:
                for address in envelope.rcpt_tos:
                    self.log(address, "data dropped")
                raise
        if server.transport is None or server.transport.is_closing():
            for address in envelope.rcpt_tos:
                self.log(address, "data dropped")
            return "421 4.4.2 Connection lost"
        content = envelope.original_content
        message_id = b""
        for line in content.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
            if line.lower().startswith(b"message-id:"):
                message_id = line.split(b":", 1)[1].strip()
        for address in envelope.rcpt_tos:
            top = f"Return-Path: <{envelope.mail_from}>\r\nDelivered-To: {address}\r\n".encode()
            mailbox.Maildir(self.maildir(address), create=False).add(top + content)
            self.log(address, f"data 250 {message_id.decode(errors='replace')}")
        return "250 2.0.0 Ok: queued"


def authenticator_for(credentials):
    user, _, password = credentials.partition(":")

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password
        return AuthResult(success=ok)

    return authenticate


async def main():
    parser = argparse.ArgumentParser(description="The tests' SMTP server (aiosmtpd, messages into Maildirs)")
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--auth", help="USER:PASSWORD that clients must log in with")
    args = parser.parse_args()
    os.makedirs(args.maildir, exist_ok=True)
    handler = Handler(args.maildir)
    options = dict(hostname="smtp.emporium.test", enable_SMTPUTF8=True)
    if args.auth:
        options.update(authenticator=authenticator_for(args.auth), auth_required=True, auth_require_tls=False)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, **options), args.host, args.port)
    host, port = server.sockets[0].getsockname()[:2]
    print(f"smtp: listening on {host}:{port}", flush=True)
    stopped = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopped.set)
    await stopped.wait()
    server.close()
    await server.wait_closed()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
