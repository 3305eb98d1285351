#pragma once

#include "importers/core/importcontrol.h"
#include "importers/tensor/npyheader.h"
#include "models/core/runmanifest.h"
#include "models/graph/dumpindex.h"
#include "models/tensor/dumpnaming.h"

#include <QString>

namespace runlens::importers::tensor {

/// Builds the DumpIndex of a run folder from the `.npy` artifacts of its manifest, reading only their
/// headers. Recognises MindSpore offline dumps (`{op_type}.{op_name}.{task}.{stream}.{ts}.{input|output}.
/// {slot}.{format}[.{dtype}].npy` under `{net}/{graph_id}/{iteration}/`) and torch-style module dumps
/// (`step_N/{module}.{kind}.npy`). Runs on any thread; bad files become diagnostics and are left out.
class DumpIndexer
{
public:
    /// Indexes the TensorNpy artifacts of `manifest`; cancellation is checked between files.
    static models::graph::DumpIndex index(const models::RunManifest& manifest, const ImportControl& control = {});
    /// The entry of one `.npy` artifact whose header has been read.
    static models::graph::DumpEntry entry(const models::Artifact& artifact, const NpyHeader& header,
                                          const models::tensor::DumpFileName& name);
    /// "Dump tensor skipped: …" for a file whose header cannot be read.
    static models::Diagnostic skipped(const QString& path, const std::string& headerError);
};

} // namespace runlens::importers::tensor
