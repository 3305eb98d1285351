#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace runlens::models::scalars {

struct ScalarPoint
{
    qint64 step = 0;
    double wallTime = 0.0; ///< seconds since the Unix epoch
    double value = 0.0;
};

/// What a writer said about a tag on its first value (TensorBoard writes metadata only once).
struct TagMetadata
{
    QString displayName;
    QString description;
    QString pluginName; ///< "scalars", or empty for legacy simple_value
};

/// New points of one tag, in file order, as an importer hands them over.
struct TagPoints
{
    QString tag;
    std::optional<TagMetadata> metadata; ///< set when this batch holds the tag's first value in its file
    std::vector<ScalarPoint> points;
};
using ScalarBatch = std::vector<TagPoints>;

/// The points of one (run, tag) in arrival order, with TensorBoard's preemption rule applied:
/// a point whose step is lower than the last kept step removes every kept point with a step at or
/// above it (a job restarted from a checkpoint replaces what it wrote after that checkpoint).
struct ScalarSeries
{
    QString run;
    QString tag;
    TagMetadata metadata;
    std::vector<ScalarPoint> points;
    qint64 preempted = 0; ///< points removed by the preemption rule so far
    /// At most this many points are kept (0: all): the latest always, the others a uniform sample of the
    /// `seen` points, as TensorBoard's reservoir keeps them.
    int capacity = 0;
    qint64 seen = 0;
    std::uint64_t sampling = 0; ///< the sampling generator's state

    void append(const ScalarPoint& point);
    bool isEmpty() const { return points.empty(); }
};

} // namespace runlens::models::scalars
