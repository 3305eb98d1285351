#pragma once

#include "models/core/artifactkind.h"

#include <QtGlobal>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace runlens::importers {

/// What FileSniffer concluded about one file.
struct SniffResult
{
    models::ArtifactKind kind = models::ArtifactKind::Unknown;
    std::optional<int> contentRank; ///< rank written inside the file (Kineto `distributedInfo.rank`)
    std::optional<int> nameRank; ///< rank from a MindSpore profiler file name (`profiler_info_3.json`)
    /// Set when the content is unknown but the name promised a kind (`*tfevents*` holding garbage, an empty
    /// `model.onnx` ...): the scanner reports it instead of silently dropping the file.
    models::ArtifactKind expectedByName = models::ArtifactKind::Unknown;
    /// The head ended inside a JSON header before what decides the kind (or Kineto's `distributedInfo`)
    /// appeared: sniffing again with FileSniffer::kLongHeadSize bytes may tell more.
    bool wantsLongerHead = false;
    /// The run's own name where the file gives one (MLflow's `run_name`); the scanner names the run after it.
    std::string runName;
};

/// Decides what a file is from its name and its first bytes. Content decides; the name only breaks ties
/// (TFRecord framing is shared by TensorBoard and MindSpore summaries, protobuf graphs look alike) and
/// never makes a file a kind on its own. Plain functions on byte views, no I/O, safe from any thread.
class FileSniffer
{
public:
    static constexpr std::size_t kHeadSize = 4096; ///< bytes read from every candidate file
    static constexpr std::size_t kLongHeadSize = 64 * 1024; ///< second read for long trace headers

    /// False for names that cannot be any kind (images, source code, checkpoints ...): such files are
    /// not opened at all. Files without an extension or with an unknown one are worth reading.
    static bool worthReading(std::string_view fileName);

    /// `fileName` is the base name; `directory` the '/'-separated folders above it (used to recognise
    /// profiler output folders); `head` the first bytes of the file; `fileSize` its full size.
    static SniffResult sniff(std::string_view fileName, std::string_view directory, std::string_view head,
                             qint64 fileSize);

    /// Rank from one path component: `rank_3`, `rank-3`, `Rank3`, also as a prefix (`rank-0.Apr_03.pt.trace.json`).
    static std::optional<int> rankFromName(std::string_view component);
};

} // namespace runlens::importers
