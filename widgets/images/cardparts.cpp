#include "widgets/images/cardparts.h"

#include "widgets/common/chartpalette.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QWidget>

namespace runlens::widgets::images {

namespace {

constexpr int kChipSize = 10;

} // namespace

QPixmap runColorChip(const QColor& color)
{
    QPixmap pixmap(kChipSize, kChipSize);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(0.5, 0.5, kChipSize - 1, kChipSize - 1));
    return pixmap;
}

QHBoxLayout* makeCardHeader(QWidget* card, const QString& run, const QString& tag, const QString& toolTip,
                            QLabel** chip)
{
    *chip = new QLabel(card);
    auto* title = new QLabel(run, card);
    title->setObjectName(QStringLiteral("cardTitle"));
    QFont titleFont = title->font();
    titleFont.setWeight(QFont::DemiBold);
    title->setFont(titleFont);
    title->setToolTip(toolTip);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* tagLabel = new QLabel(tag, card);
    tagLabel->setForegroundRole(QPalette::PlaceholderText);
    tagLabel->setToolTip(toolTip);
    tagLabel->setMinimumWidth(20);
    auto* header = new QHBoxLayout;
    header->setSpacing(6);
    header->addWidget(*chip);
    header->addWidget(title);
    header->addWidget(tagLabel, 1);
    return header;
}

void setCardHeaderRun(QWidget* card, const QString& runLabel, const QString& toolTip)
{
    if (auto* title = card->findChild<QLabel*>(QStringLiteral("cardTitle"))) {
        title->setText(runLabel);
        title->setToolTip(toolTip);
    }
}

QSlider* makeStepSlider(QWidget* card, const QString& toolTip)
{
    auto* slider = new QSlider(Qt::Horizontal, card);
    slider->setObjectName(QStringLiteral("stepSlider"));
    slider->setRange(0, 0);
    slider->setPageStep(5);
    slider->setToolTip(toolTip);
    return slider;
}

void resetStepSlider(QSlider* slider, int count, int index)
{
    const QSignalBlocker blocker(slider);
    slider->setRange(0, std::max(0, count - 1));
    slider->setValue(std::max(0, index));
    slider->setEnabled(count > 1);
}

void paintCardFrame(QWidget* card)
{
    QPainter painter(card);
    const QPalette pal = card->palette();
    painter.fillRect(card->rect(), pal.color(QPalette::Base));
    painter.setPen(QPen(blendColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.82), 1));
    painter.drawRect(QRectF(card->rect()).adjusted(0.5, 0.5, -0.5, -0.5));
}

QString cardExportFileName(const QString& exportDirectory, QStandardPaths::StandardLocation location,
                           const QString& base, const QString& suffix,
                           const std::function<QString(const QString& suggested)>& provider)
{
    QString directory = exportDirectory;
    if (directory.isEmpty())
        directory = QStandardPaths::writableLocation(location);
    if (directory.isEmpty() || !QDir(directory).exists())
        directory = QDir::homePath();
    QString fileName = QDir(directory).filePath(base + suffix);
    if (provider)
        return provider(fileName);
    for (int n = 2; QFileInfo::exists(fileName); ++n)
        fileName = QDir(directory).filePath(QStringLiteral("%1-%2%3").arg(base).arg(n).arg(suffix));
    return fileName;
}

} // namespace runlens::widgets::images
