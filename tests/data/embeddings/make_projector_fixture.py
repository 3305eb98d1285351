#!/usr/bin/python3
"""Writes a TensorBoard projector folder the way torch's SummaryWriter.add_embedding does.

The TSV files are written by torch's own code (torch.utils.tensorboard._embedding.make_mat and make_tsv),
the config by protobuf's text_format from a ProjectorConfig message with TensorBoard's field numbers, and
the folder layout (<step>/<tag>/...) follows SummaryWriter.add_embedding. The `tensorboard` package itself
(whose gfile the torch helpers write through) and Pillow (for the sprite) are not Debian packages, so a
small stand-in for gfile is installed here and the sprite PNG is written with zlib.

Usage: make_projector_fixture.py OUTPUT_FOLDER
"""
import importlib.util
import os
import struct
import sys
import types
import zlib

import numpy as np
import torch
from google.protobuf import descriptor_pb2, descriptor_pool, text_format
try:
    from google.protobuf import message_factory
except ImportError:  # pragma: no cover
    message_factory = None


def install_gfile_stand_in():
    """`tensorboard.compat.tf` as far as _embedding.py uses it: bytes, a filesystem and GFile."""
    class FileSystem:
        def join(self, *parts):
            return os.path.join(*parts)

        def write(self, path, data, binary_mode=True):
            with open(path, "wb") as f:
                f.write(data)

    class Gfile:
        @staticmethod
        def get_filesystem(path):
            return FileSystem()

        GFile = open

    tf = types.SimpleNamespace(
        compat=types.SimpleNamespace(as_bytes=lambda s: s.encode("utf-8") if isinstance(s, str) else s),
        io=types.SimpleNamespace(gfile=Gfile))
    tensorboard = types.ModuleType("tensorboard")
    compat = types.ModuleType("tensorboard.compat")
    compat.tf = tf
    plugins = types.ModuleType("tensorboard.plugins")
    projector = types.ModuleType("tensorboard.plugins.projector")
    pb2 = types.ModuleType("tensorboard.plugins.projector.projector_config_pb2")
    pb2.EmbeddingInfo = None  # not used: the config is built below
    for name, module in {"tensorboard": tensorboard, "tensorboard.compat": compat,
                         "tensorboard.plugins": plugins, "tensorboard.plugins.projector": projector,
                         "tensorboard.plugins.projector.projector_config_pb2": pb2}.items():
        sys.modules[name] = module


def load_torch_embedding_module():
    install_gfile_stand_in()
    import torch.utils
    path = os.path.join(os.path.dirname(torch.utils.__file__), "tensorboard", "_embedding.py")
    package = types.ModuleType("torch_tb")
    package.__path__ = [os.path.dirname(path)]
    sys.modules["torch_tb"] = package
    spec = importlib.util.spec_from_file_location("torch_tb._embedding", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def projector_config_class():
    """ProjectorConfig with TensorBoard's field numbers (projector_config.proto)."""
    f = descriptor_pb2.FileDescriptorProto(name="fixture_projector.proto", package="fixture")
    T = descriptor_pb2.FieldDescriptorProto

    def add(msg, name, number, ftype, label=T.LABEL_OPTIONAL, type_name=None):
        field = msg.field.add(name=name, number=number, type=ftype, label=label)
        if type_name:
            field.type_name = type_name

    sprite = f.message_type.add(name="SpriteMetadata")
    add(sprite, "image_path", 1, T.TYPE_STRING)
    add(sprite, "single_image_dim", 2, T.TYPE_UINT32, T.LABEL_REPEATED)
    info = f.message_type.add(name="EmbeddingInfo")
    add(info, "tensor_name", 1, T.TYPE_STRING)
    add(info, "metadata_path", 2, T.TYPE_STRING)
    add(info, "bookmarks_path", 3, T.TYPE_STRING)
    add(info, "tensor_shape", 4, T.TYPE_UINT32, T.LABEL_REPEATED)
    add(info, "sprite", 5, T.TYPE_MESSAGE, type_name=".fixture.SpriteMetadata")
    add(info, "tensor_path", 8, T.TYPE_STRING)
    config = f.message_type.add(name="ProjectorConfig")
    add(config, "model_checkpoint_path", 1, T.TYPE_STRING)
    add(config, "embeddings", 2, T.TYPE_MESSAGE, T.LABEL_REPEATED, ".fixture.EmbeddingInfo")
    add(config, "model_checkpoint_dir", 3, T.TYPE_STRING)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    descriptor = pool.FindMessageTypeByName("fixture.ProjectorConfig")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


def write_png(path, rgb):
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].astype(np.uint8).tobytes() for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1]
    emb = load_torch_embedding_module()
    ProjectorConfig = projector_config_class()
    config = ProjectorConfig()
    torch.manual_seed(7)

    def add_embedding(mat, metadata=None, metadata_header=None, label_img=None, global_step=0, tag="default"):
        # SummaryWriter.add_embedding: <logdir>/<step:05>/<tag>/ holding the TSVs and the sprite.
        subdir = "%s/%s" % (str(global_step).zfill(5), tag)
        save_path = os.path.join(out, subdir)
        os.makedirs(save_path, exist_ok=True)
        if metadata is not None:
            emb.make_tsv(metadata, save_path, metadata_header=metadata_header)
        info = config.embeddings.add()
        info.tensor_name = "{}:{}".format(tag, str(global_step).zfill(5))
        info.tensor_path = os.path.join(subdir, "tensors.tsv")
        if metadata is not None:
            info.metadata_path = os.path.join(subdir, "metadata.tsv")
        if label_img is not None:
            n, _, h, w = label_img.shape
            side = int(np.ceil(n ** 0.5))
            sheet = np.zeros((side * h, side * w, 3))
            for i in range(n):
                r, c = divmod(i, side)
                sheet[r * h:(r + 1) * h, c * w:(c + 1) * w] = label_img[i].permute(1, 2, 0).numpy()
            write_png(os.path.join(save_path, "sprite.png"), (sheet * 255).clip(0, 255))
            info.sprite.image_path = os.path.join(subdir, "sprite.png")
            info.sprite.single_image_dim.extend([w, h])
        emb.make_mat(mat, save_path)
        with open(os.path.join(out, "projector_config.pbtxt"), "w") as f:
            f.write(text_format.MessageToString(config))

    # Three clusters in 16 dimensions with a two-column metadata table and a sprite.
    centres = torch.randn(3, 16) * 4
    labels = [i % 3 for i in range(60)]
    mat = torch.stack([centres[c] + torch.randn(16) for c in labels])
    metadata = [["class%d" % c, str(i * 0.5)] for i, c in enumerate(labels)]
    add_embedding(mat, metadata=metadata, metadata_header=["class", "score"],
                  label_img=torch.rand(60, 3, 8, 8), tag="features")
    # A single metadata column (no header), at a later step.
    add_embedding(torch.randn(12, 4), metadata=["word%d" % i for i in range(12)], global_step=3, tag="words")


if __name__ == "__main__":
    main()
