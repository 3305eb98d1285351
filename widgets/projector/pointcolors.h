#pragma once

#include <QColor>
#include <QList>
#include <QRgb>
#include <QString>
#include <QStringList>

#include <vector>

namespace runlens::models::embeddings {
struct EmbeddingSet;
}

namespace runlens::widgets::projector {

/// How the points are coloured by one metadata column: up to kMaxCategories distinct values get a
/// palette colour each; a column whose cells are all numbers gets a continuous map; anything else is
/// one colour with the reason in `note`.
struct PointColors
{
    static constexpr int kMaxCategories = 20;

    enum class Kind { Uniform, Categorical, Continuous };
    Kind kind = Kind::Uniform;
    std::vector<QRgb> colors; ///< one per point
    QStringList categories; ///< for Categorical, in legend order (most frequent first)
    QList<QColor> categoryColors;
    double minimum = 0.0; ///< for Continuous
    double maximum = 0.0;
    QString note;
};

/// `column` -1 colours every point alike.
PointColors colorPoints(const models::embeddings::EmbeddingSet& set, int column);

/// The categorical palette: 20 colours that stay apart on a white background.
QColor categoryColor(int index);

} // namespace runlens::widgets::projector
