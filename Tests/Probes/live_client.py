"""The little of a WebSocket client the probes and benchmarks of `signalscope live` need:
the handshake of a page, the server's text frames as they come, and a masked text frame
back ("received end")."""
import base64
import os
import socket


def open_page(port, token, timeout=60, process=None):
    """A connection to the push channel of the live server on 127.0.0.1:`port`, past its
    handshake, as the page's script opens it (the page of traced process `process`, if given)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    query = f"token={token}" + (f"&process={process}" if process else "")
    connection.sendall((f"GET /live?{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    return connection


def frames(connection):
    """The text of each frame the server sends, as it comes."""
    buffer = b""
    while True:
        while len(buffer) < 2 or len(buffer) < header_length(buffer) + payload_length(buffer):
            chunk = connection.recv(65536)
            if not chunk:
                return
            buffer += chunk
        start, length = header_length(buffer), payload_length(buffer)
        opcode = buffer[0] & 0x0F
        payload, buffer = buffer[start:start + length], buffer[start + length:]
        if opcode == 1:
            yield payload.decode()
        elif opcode == 8:
            return


def header_length(buffer):
    if len(buffer) < 2:
        return 2
    size = buffer[1] & 0x7F
    return 2 if size < 126 else 4 if size == 126 else 10


def payload_length(buffer):
    if len(buffer) < header_length(buffer):
        return 1 << 30
    size = buffer[1] & 0x7F
    if size == 126:
        return int.from_bytes(buffer[2:4], "big")
    if size == 127:
        return int.from_bytes(buffer[2:10], "big")
    return size


def send_text(connection, text):
    data = text.encode()
    mask = os.urandom(4)
    connection.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
