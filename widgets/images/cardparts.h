#pragma once

#include <QColor>
#include <QPixmap>
#include <QStandardPaths>
#include <QString>

#include <algorithm>
#include <functional>
#include <vector>

class QHBoxLayout;
class QLabel;
class QSlider;
class QWidget;

namespace runlens::widgets::images {

/// A small disc in a run's colour, as in the Scalars legend.
QPixmap runColorChip(const QColor& color);

/// The header row of a summary card: the run's colour chip (returned in `chip` to recolour later), the
/// run in bold and the tag muted.
QHBoxLayout* makeCardHeader(QWidget* card, const QString& run, const QString& tag, const QString& toolTip,
                            QLabel** chip);
/// Renames the run in a header made by makeCardHeader (the run as users see it, runDisplayName).
void setCardHeaderRun(QWidget* card, const QString& runLabel, const QString& toolTip);

/// A step slider over the indices of a series (only steps that have values are on it).
QSlider* makeStepSlider(QWidget* card, const QString& toolTip);

/// Sets a step slider to `count` items with `index` chosen, without emitting; disabled when there is no choice.
void resetStepSlider(QSlider* slider, int count, int index);

/// The step of item `index`, or 0 when there is no such item.
template<typename Item> qint64 stepAtIndex(const std::vector<Item>& items, int index)
{
    return index < 0 || index >= int(items.size()) ? 0 : items[size_t(index)].step;
}

/// Paints a card's background and its one-pixel frame, like a framed chart of the Scalars panel.
void paintCardFrame(QWidget* card);

/// The file a card's export goes to, `base` + `suffix` in the card's export folder (else the user's folder
/// for this kind of file, else home): the provider's choice when there is one (empty: the user cancelled),
/// otherwise the first name not taken yet (`base-2.png`, ...).
QString cardExportFileName(const QString& exportDirectory, QStandardPaths::StandardLocation location,
                           const QString& base, const QString& suffix,
                           const std::function<QString(const QString& suggested)>& provider);

/// The series index a card shows after its series changed from `previousCount` items (the card was on
/// `previousIndex`, at `previousStep`): the newest item when the card was on the newest one, else the
/// item at or after the step it showed.
template<typename Item>
int indexAfterUpdate(const std::vector<Item>& items, int previousCount, int previousIndex, qint64 previousStep)
{
    const int count = int(items.size());
    if (count == 0)
        return -1;
    if (previousCount == 0 || previousIndex >= previousCount - 1)
        return count - 1;
    const auto it = std::lower_bound(items.begin(), items.end(), previousStep,
                                     [](const Item& item, qint64 step) { return item.step < step; });
    return std::clamp(int(it - items.begin()), 0, count - 1);
}

} // namespace runlens::widgets::images
