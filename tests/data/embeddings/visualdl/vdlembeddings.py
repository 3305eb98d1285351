#!/usr/bin/python3
"""VisualDL's log record, as far as add_embeddings values go, for the fixture scripts of this folder.

The message types are built here from VisualDL's field numbers (record.proto of package `visualdl`:
Record.values = 1; Value.id = 1, tag = 2, timestamp = 3, meta_data = 10, embeddings = 7;
Embeddings.embeddings = 1, label_meta = 2; Embedding.label = 1, vectors = 2; MetaData.display_name = 1),
so decoding does not go through RunLens' own .proto file. Needs python3-protobuf.
"""
import struct

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def _build():
    fdp = descriptor_pb2.FileDescriptorProto(name="vdl_embeddings_oracle.proto", package="oracle", syntax="proto3")

    def message(name, fields):
        m = fdp.message_type.add(name=name)
        for fname, number, ftype, label, type_name in fields:
            f = m.field.add(name=fname, number=number, type=ftype, label=label)
            if type_name:
                f.type_name = ".oracle." + type_name
        return m

    opt, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    message("Embedding", [("label", 1, F.TYPE_STRING, rep, None), ("vectors", 2, F.TYPE_FLOAT, rep, None)])
    message("Embeddings", [("embeddings", 1, F.TYPE_MESSAGE, rep, "Embedding"),
                           ("label_meta", 2, F.TYPE_STRING, rep, None)])
    message("MetaData", [("display_name", 1, F.TYPE_STRING, opt, None)])
    message("Value", [("id", 1, F.TYPE_INT64, opt, None), ("tag", 2, F.TYPE_STRING, opt, None),
                      ("timestamp", 3, F.TYPE_INT64, opt, None),
                      ("embeddings", 7, F.TYPE_MESSAGE, opt, "Embeddings"),
                      ("meta_data", 10, F.TYPE_MESSAGE, opt, "MetaData")])
    message("Record", [("values", 1, F.TYPE_MESSAGE, rep, "Value")])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    get = getattr(message_factory, "GetMessageClass", None)
    if get is None:
        factory = message_factory.MessageFactory(pool)
        get = lambda d: factory.GetPrototype(d)
    return {n: get(pool.FindMessageTypeByName("oracle." + n)) for n in ("Record", "Value", "Embeddings",
                                                                         "Embedding", "MetaData")}


TYPES = _build()
Record = TYPES["Record"]


def frames(data):
    """The payloads of a vdlrecords file: 8-byte little-endian length, then the payload, no checksum."""
    at = 0
    while at + 8 <= len(data):
        (length,) = struct.unpack_from("<Q", data, at)
        if at + 8 + length > len(data):
            break
        yield data[at + 8:at + 8 + length]
        at += 8 + length


def frame(payload):
    return struct.pack("<Q", len(payload)) + payload
