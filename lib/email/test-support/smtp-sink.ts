import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

// A tiny SMTP server on loopback for tests (RFC 5321 subset: EHLO/HELO, MAIL FROM, RCPT TO,
// DATA, RSET, NOOP, QUIT). It keeps every message it accepts, or refuses them while `refusing`.

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body), dot-stuffing removed. */
  data: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: ReceivedMail[];
  setRefusing(refusing: boolean): void;
  /** Resolves when `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  let refusing = false;

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setEncoding("utf8");
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let inData = false;
    let dataLines: string[] = [];
    let from = "";
    let to: string[] = [];
    reply("220 sink.test ESMTP");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let index: number;
      while ((index = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            messages.push({ from, to, data: dataLines.join("\r\n") });
            from = "";
            to = [];
            reply("250 2.0.0 Ok: queued");
          } else dataLines.push(line.startsWith("..") ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-sink.test\r\n250 8BITMIME\r\n");
        else if (verb === "HELO") reply("250 sink.test");
        else if (verb === "MAIL") {
          if (refusing) reply("451 4.3.0 Try again later");
          else {
            from =
              line
                .replace(/^MAIL FROM:\s*/i, "")
                .replace(/[<>]/g, "")
                .split(" ")[0] ?? "";
            reply("250 2.1.0 Ok");
          }
        } else if (verb === "RCPT") {
          to.push(
            line
              .replace(/^RCPT TO:\s*/i, "")
              .replace(/[<>]/g, "")
              .split(" ")[0] ?? "",
          );
          reply("250 2.1.5 Ok");
        } else if (verb === "DATA") {
          inData = true;
          dataLines = [];
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "RSET") {
          from = "";
          to = [];
          reply("250 Ok");
        } else if (verb === "NOOP") reply("250 Ok");
        else if (verb === "QUIT") {
          reply("221 Bye");
          socket.end();
        } else reply("502 5.5.2 Command not recognized");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    setRefusing(value) {
      refusing = value;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`SMTP sink: ${messages.length} of ${count} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The decoded text/plain part of a raw message (quoted-printable or 7/8-bit). */
export function textBody(raw: string): string {
  const unfolded = raw.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return unfolded;
}
