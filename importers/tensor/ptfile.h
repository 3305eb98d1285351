#pragma once

#include "importers/tensor/tensorlisting.h"

#include <QString>

#include <string_view>

namespace runlens::importers::tensor {

/// Lists the tensors of a PyTorch `torch.save` file (`.pt`, `.pth`, `.bin`): a zip archive whose one top
/// folder holds `data.pkl` (the pickled object), `data/<key>` (one record of raw bytes per storage),
/// `byteorder` and `version`. data.pkl is decoded by the data-only pickle decoder with its weights-only
/// allow-list (tensor rebuild functions, storage types, dtypes, OrderedDict, torch.Size); a pickle asking for
/// any other global is refused by name and nothing of it is listed. Typed storages give the dtype
/// (_rebuild_tensor_v2); untyped ones with a dtype argument (_rebuild_tensor_v3) bring uint16/32/64 and float8. A
/// single tensor is listed with an empty member name; dicts (state dicts, checkpoints) and lists are flattened to
/// dotted names
/// ("model.fc.weight", "optimizer.state.0.momentum_buffer"); plain values (epoch, learning rates) become
/// `metadata`. Contiguous tensors are read in place through one mapping of the file shared by all; views
/// with other strides are copied out in C order when opened. Every offset, extent and stride is checked
/// against its storage record first. The legacy format (before PyTorch 1.6), compressed records and
/// big-endian files are refused with a message. Runs on any thread.
TensorListing listPtFile(const QString& path);

/// True when `head` starts like a torch.save file of the legacy format (its pickled magic number).
bool looksLikeLegacyTorchSave(std::string_view head);

/// True when the first zip member named in `head` (a local header) is a torch.save record:
/// `<folder>/data.pkl`, `<folder>/byteorder`, `<folder>/.format_version` or `<folder>/version`.
bool looksLikeTorchSaveZip(std::string_view head);

} // namespace runlens::importers::tensor
