#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace runlens::models::embeddings {

/// One set of embeddings: N points of D dimensions (row-major floats) with an optional metadata table
/// (one row per point) and an optional sprite sheet. Readers build it; once published it is shared as
/// `std::shared_ptr<const EmbeddingSet>` and never changes.
struct EmbeddingSet
{
    QString name; ///< TensorBoard's `tensor_name`, VisualDL's tag
    QString source; ///< the file it was read from (for messages)
    int rows = 0;
    int dims = 0;
    std::vector<float> values; ///< rows * dims, row-major

    QStringList metadataColumns; ///< empty: no metadata
    std::vector<QStringList> metadata; ///< one row per point, metadataColumns.size() cells each

    QString spritePath; ///< absolute; empty when there is none
    QSize spriteImageSize; ///< size of one image in the sprite sheet

    const float* row(int i) const { return values.data() + std::size_t(i) * std::size_t(dims); }
    bool hasMetadata() const { return !metadataColumns.isEmpty(); }
    bool hasSprite() const { return !spritePath.isEmpty(); }
    /// The metadata cell of point `row` in `column`; empty when out of range.
    QString cell(int row, int column) const;
    /// Index of the metadata column named `name`, -1 when absent.
    int columnIndex(const QString& name) const;
};

using EmbeddingSetPtr = std::shared_ptr<const EmbeddingSet>;

/// What `runlens info` says of one embedding set.
struct EmbeddingSummary
{
    QString name;
    int points = 0;
    int dims = 0;
    QStringList metadataColumns;
    bool sprite = false;
};

EmbeddingSummary summarize(const EmbeddingSet& set);

} // namespace runlens::models::embeddings
