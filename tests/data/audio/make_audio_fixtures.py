#!/usr/bin/python3
"""Writes the audio fixtures of tests/data/audio (run with Debian's /usr/bin/python3: numpy, protobuf).

- wav/*.wav: one clip per sample format RunLens decodes. PCM through Python's `wave` module; IEEE float
  (which `wave` cannot write) with a hand-made `fmt ` chunk of format 3. expected.json lists each clip's
  format and its samples as written (integers for PCM, floats for float clips).
- tb/events.out.tfevents.*: a TensorBoard event file with both audio encodings: `Summary.Value.audio`
  (torch's SummaryWriter.add_audio writes this one; torch here cannot run it, as its tensorboard module
  is not packaged in Debian) and the TF2 audio plugin's `[k, 2]` string tensor of (WAV, label) rows.
  Events are built from RunLens' own .proto files, which carry TensorBoard's field numbers.
- vdl/vdlrecords.1595923424.log: the first two records of VisualDL's demo log
  frontend/packages/demo/logs/audio/vdlrecords.1595923424.log (VisualDL repository, Apache-2.0), with each
  clip cut to its first 2000 frames so the file stays small; every other field is as VisualDL wrote it
  (including `length_frames`, which that writer filled with the byte count). Needs the upstream log as
  argument 1 and VisualDL's record.proto compiled to record_pb2 on PYTHONPATH.
"""
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def pcm_wav(samples, rate, bits):
    frames = samples.shape[0]
    channels = samples.shape[1]
    if bits == 8:
        raw = (samples + 128).astype(np.uint8).tobytes()
    elif bits == 16:
        raw = samples.astype("<i2").tobytes()
    elif bits == 24:
        s = samples.astype("<i4").reshape(-1)
        raw = b"".join(struct.pack("<i", int(v))[:3] for v in s)
    else:
        raw = samples.astype("<i4").tobytes()
    out = io.BytesIO()
    w = wave.open(out, "wb")
    w.setnchannels(channels)
    w.setsampwidth(bits // 8)
    w.setframerate(rate)
    w.writeframes(raw)
    w.close()
    data = out.getvalue()
    check = wave.open(io.BytesIO(data))
    assert check.getnframes() == frames and check.getnchannels() == channels and check.getframerate() == rate
    return data


def float_wav(samples, rate, bits):
    channels = samples.shape[1]
    raw = samples.astype("<f4" if bits == 32 else "<f8").tobytes()
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHHH", 3, channels, rate, rate * block, block, bits, 0)
    fact = struct.pack("<I", samples.shape[0])
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"fact" + struct.pack("<I", 4) + fact
    body += b"data" + struct.pack("<I", len(raw)) + raw
    return b"RIFF" + struct.pack("<I", len(body)) + body


def write_wavs(expected):
    os.makedirs(os.path.join(HERE, "wav"), exist_ok=True)
    frames = 48
    t = np.arange(frames)
    clips = []
    for name, fmt, bits, channels, rate in [
        ("pcm8_mono", "pcm", 8, 1, 8000),
        ("pcm16_stereo", "pcm", 16, 2, 16000),
        ("pcm24_mono", "pcm", 24, 1, 44100),
        ("pcm32_stereo", "pcm", 32, 2, 48000),
        ("float32_mono", "float", 32, 1, 22050),
        ("float64_stereo", "float", 64, 2, 96000),
    ]:
        wave_ = np.stack([np.sin(2 * np.pi * (c + 1) * t / 16.0 + c) for c in range(channels)], axis=1)
        if fmt == "pcm":
            full = 2 ** (bits - 1)
            s = np.round(wave_ * (full - 1)).astype(np.int64)
            s[0, :] = -full  # the extremes, where off-by-one scaling shows
            s[1, :] = full - 1
            data = pcm_wav(s, rate, bits)
            values = s.reshape(-1).tolist()
        else:
            s = wave_ * 0.75
            s[0, :] = -1.0
            s[1, :] = 1.0
            if bits == 32:
                s = s.astype(np.float32)
            data = float_wav(s, rate, bits)
            values = [float(v) for v in s.reshape(-1)]
        with open(os.path.join(HERE, "wav", name + ".wav"), "wb") as f:
            f.write(data)
        expected[name] = {"format": fmt, "bits": bits, "channels": channels, "sample_rate": rate,
                          "frames": frames, "samples": values}


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(payload):
    header = struct.pack("<Q", len(payload))
    return header + struct.pack("<I", masked(crc32c(header))) + payload + struct.pack("<I", masked(crc32c(payload)))


def chirp(rate, seconds, f0, f1, channels=1):
    n = int(rate * seconds)
    t = np.arange(n) / rate
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t * t / (2 * seconds))
    envelope = np.minimum(1.0, np.minimum(t, seconds - t) * 20)
    cols = [0.6 * envelope * np.sin(phase * (1 + 0.5 * c)) for c in range(channels)]
    return np.round(np.stack(cols, axis=1) * 32767).astype(np.int64)


def write_tensorboard(expected):
    protos = tempfile.mkdtemp()
    subprocess.check_call(["protoc", "--python_out=" + protos, "-I", os.path.join(ROOT, "importers"),
                           "summary/proto/tb_tensor.proto", "summary/proto/tb_summary.proto",
                           "summary/proto/tb_event.proto"], cwd=os.path.join(ROOT, "importers"))
    sys.path.insert(0, protos)
    from summary.proto import tb_event_pb2, tb_summary_pb2, tb_tensor_pb2  # noqa: E402

    os.makedirs(os.path.join(HERE, "tb"), exist_ok=True)
    out = record(tb_event_pb2.Event(wall_time=1700000000.0, file_version=b"brain.Event:2").SerializeToString())
    legacy = []
    for i, step in enumerate([0, 10, 20]):
        rate = 16000
        data = pcm_wav(chirp(rate, 0.5, 300 + 200 * i, 3000 + 500 * i), rate, 16)
        event = tb_event_pb2.Event(wall_time=1700000000.0 + step, step=step)
        value = event.summary.value.add()
        value.tag = b"speech/legacy"
        value.audio.sample_rate = rate
        value.audio.num_channels = 1
        value.audio.length_frames = len(data) // 2 - 22
        value.audio.encoded_audio_string = data
        value.audio.content_type = "audio/wav"
        out += record(event.SerializeToString())
        legacy.append({"step": step, "bytes": len(data)})
    plugin = []
    for i, step in enumerate([5, 15]):
        rate = 8000
        event = tb_event_pb2.Event(wall_time=1700000100.0 + step, step=step)
        value = event.summary.value.add()
        value.tag = b"speech/tf2"
        if i == 0:
            value.metadata.plugin_data.plugin_name = b"audio"
        value.tensor.dtype = tb_tensor_pb2.DT_STRING
        value.tensor.tensor_shape.dim.add(size=2)
        value.tensor.tensor_shape.dim.add(size=2)
        for k in range(2):
            value.tensor.string_val.append(pcm_wav(chirp(rate, 0.25, 200 * (k + 1), 2000, channels=2), rate, 16))
            value.tensor.string_val.append(("sample %d" % k).encode())
        out += record(event.SerializeToString())
        plugin.append({"step": step, "clips": 2})
    name = "events.out.tfevents.1700000000.fixture.1.0"
    with open(os.path.join(HERE, "tb", name), "wb") as f:
        f.write(out)
    expected["tensorboard"] = {
        "file": "tb/" + name,
        "speech/legacy": {"steps": [0, 10, 20], "sample_rate": 16000, "channels": 1, "frames": 8000},
        "speech/tf2": {"steps": [5, 15], "sample_rate": 8000, "channels": 2, "frames": 2000,
                       "labels": ["sample 0", "sample 1"]},
    }


def write_visualdl(expected, upstream):
    import record_pb2  # VisualDL's record.proto, compiled by protoc --python_out

    data = open(upstream, "rb").read()
    offset = 0
    out = b""
    clips = []
    while offset + 8 <= len(data) and len(clips) < 2:
        (length,) = struct.unpack("<q", data[offset:offset + 8])
        rec = record_pb2.Record()
        rec.ParseFromString(data[offset + 8:offset + 8 + length])
        offset += 8 + length
        for v in rec.values:
            w = wave.open(io.BytesIO(v.audio.encoded_audio_string))
            frames = w.readframes(2000)
            buf = io.BytesIO()
            o = wave.open(buf, "wb")
            o.setnchannels(w.getnchannels())
            o.setsampwidth(w.getsampwidth())
            o.setframerate(w.getframerate())
            o.writeframes(frames)
            o.close()
            v.audio.encoded_audio_string = buf.getvalue()
            v.audio.length_frames = len(frames)  # as VisualDL fills it: the byte count
            clips.append({"tag": v.tag, "step": v.id, "sample_rate": w.getframerate(), "channels": w.getnchannels(),
                          "frames": len(frames) // (w.getsampwidth() * w.getnchannels())})
        payload = rec.SerializeToString()
        out += struct.pack("<q", len(payload)) + payload
    os.makedirs(os.path.join(HERE, "vdl"), exist_ok=True)
    with open(os.path.join(HERE, "vdl", os.path.basename(upstream)), "wb") as f:
        f.write(out)
    expected["visualdl"] = {"file": "vdl/" + os.path.basename(upstream), "clips": clips}


def main():
    expected = {}
    write_wavs(expected)
    write_tensorboard(expected)
    if len(sys.argv) > 1:
        write_visualdl(expected, sys.argv[1])
    else:
        old = json.load(open(os.path.join(HERE, "expected.json")))
        expected["visualdl"] = old["visualdl"]
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
