#pragma once

#include "importers/summary/eventfilewriter.h"
#include "models/core/crc32c.h"

#include <QByteArray>
#include <QString>
#include <QtEndian>

#include <zlib.h>

#include <cstddef>

// Builders of the first bytes of the files the run scanner and the file sniffer tell apart: TFRecord framing,
// protobuf fields and graphs, npy/zip/safetensors tensors, Kineto JSON, gzip.

namespace runlens::test {

inline QByteArray le64(quint64 value)
{
    QByteArray out(8, '\0');
    qToLittleEndian(value, out.data());
    return out;
}

inline QByteArray le32(quint32 value)
{
    QByteArray out(4, '\0');
    qToLittleEndian(value, out.data());
    return out;
}

inline QByteArray varint(quint64 value)
{
    QByteArray out;
    do {
        quint8 byte = value & 0x7f;
        value >>= 7;
        if (value)
            byte |= 0x80;
        out.append(char(byte));
    } while (value);
    return out;
}

inline QByteArray protoBytes(int field, const QByteArray& payload)
{
    return varint(quint64(field) << 3 | 2) + varint(quint64(payload.size())) + payload;
}

inline QByteArray protoVarint(int field, quint64 value)
{
    return varint(quint64(field) << 3) + varint(value);
}

inline QByteArray protoDouble(int field, double value)
{
    QByteArray out = varint(quint64(field) << 3 | 1);
    QByteArray bits(8, '\0');
    qToLittleEndian(value, bits.data());
    return out + bits;
}

/// One TFRecord: length, masked CRC of the length, payload, masked CRC of the payload.
inline QByteArray tfRecord(const QByteArray& payload)
{
    const QByteArray length = le64(quint64(payload.size()));
    return length + le32(models::maskedCrc32c(length.constData(), 8)) + payload
        + le32(models::maskedCrc32c(payload.constData(), std::size_t(payload.size())));
}

/// An Event (TensorBoard and MindSpore share the numbering): wall_time, then a version string.
inline QByteArray versionEvent(const QByteArray& version)
{
    return protoDouble(1, 1700000000.0) + protoBytes(3, version);
}

inline QByteArray gzipped(const QByteArray& data)
{
    z_stream stream {};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&stream, uLong(data.size()))) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

inline QByteArray npyBytes()
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
    return out + header + QByteArray(8, '\0');
}

/// A zip local file header for one stored member (enough for the sniffer; not a complete archive).
inline QByteArray zipWithMember(const QByteArray& member, const QByteArray& content)
{
    QByteArray out("PK\x03\x04", 4);
    out += QByteArray(22, '\0');
    out.append(char(member.size() & 0xff)).append(char(member.size() >> 8));
    out += QByteArray(2, '\0');
    return out + member + content;
}

inline QByteArray safetensorsBytes(const QByteArray& header)
{
    return le64(quint64(header.size())) + header + QByteArray(16, '\0');
}

inline QByteArray kinetoHeader(int rank, int devicePadding)
{
    QByteArray json = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n";
    for (int i = 0; i < devicePadding; ++i) {
        json += QByteArray("    {\"id\": ") + QByteArray::number(i)
            + ", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85031714816, \"computeMajor\": 8},\n";
    }
    json += "    {\"id\": 99}\n  ],\n";
    if (rank >= 0)
        json += "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + QByteArray::number(rank)
            + ", \"world_size\": 64},\n";
    json += "  \"traceEvents\": [\n  {\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
            "\"dur\": 2}\n";
    json += "]}\n";
    return json;
}

inline QByteArray onnxBytes()
{
    const QByteArray node = protoBytes(1, "x") + protoBytes(2, "y") + protoBytes(4, "Relu");
    const QByteArray graph = protoBytes(1, node) + protoBytes(2, "g");
    return protoVarint(1, 7) + protoBytes(2, "pytorch") + protoBytes(3, "1.13.1") + protoBytes(7, graph)
        + protoBytes(8, protoVarint(2, 13));
}

inline QByteArray anfModelBytes()
{
    const QByteArray input = protoBytes(1, "x") + protoVarint(2, 0);
    const QByteArray node = protoBytes(1, input) + protoBytes(2, "1") + protoBytes(3, "Conv2D");
    const QByteArray graph = protoBytes(1, node) + protoBytes(2, "kernel_graph_0");
    return protoVarint(1, 1) + protoBytes(2, "") + protoVarint(3, 1) + protoBytes(4, graph);
}

inline QByteArray anfBareGraphBytes()
{
    const QByteArray input = protoBytes(1, "args1") + protoVarint(2, 0);
    const QByteArray node = protoBytes(1, input) + protoBytes(2, "1") + protoBytes(3, "OneHot")
        + protoBytes(4, "Default/network-WithLossCell");
    return protoBytes(1, node) + protoBytes(2, "kernel_graph_0");
}

inline QByteArray tfGraphDefBytes()
{
    const QByteArray attr = protoBytes(1, "dtype") + protoBytes(2, protoVarint(6, 1));
    const QByteArray node = protoBytes(1, "input") + protoBytes(2, "Placeholder") + protoBytes(5, attr);
    const QByteArray node2 = protoBytes(1, "relu") + protoBytes(2, "Relu") + protoBytes(3, "input");
    return protoBytes(1, node) + protoBytes(1, node2) + protoBytes(4, protoVarint(1, 27));
}

inline QString tbName(int counter = 0)
{
    return importers::summary::EventFileWriter::tensorBoardFileName(1700000000, QStringLiteral("host"), 42, counter);
}

} // namespace runlens::test
