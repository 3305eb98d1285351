#include "app/summarylimitsdialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::app {

namespace {

constexpr int kMaximum = 1'000'000;

QSpinBox* limitBox(QWidget* parent, const QString& tooltip)
{
    auto* box = new QSpinBox(parent);
    box->setRange(0, kMaximum);
    box->setSpecialValueText(QCoreApplication::translate("runlens::app::SummaryLimitsDialog", "all"));
    box->setToolTip(tooltip);
    return box;
}

} // namespace

SummaryLimitsDialog::SummaryLimitsDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Summary Sample Limits"));
    auto* intro = new QLabel(tr("Long runs write more values than are useful to keep in memory. Per tag, RunLens "
                                "keeps at most this many values: always the latest, the others a uniform sample, "
                                "as TensorBoard does. Scalars are kept whole unless you set a limit. Applies from "
                                "the next reload."),
                             this);
    intro->setWordWrap(true);
    m_scalars = limitBox(this, tr("Scalar points kept per tag and run (0 keeps all)"));
    m_histograms = limitBox(this, tr("Histograms kept per tag (0 keeps all)"));
    m_images = limitBox(this, tr("Steps with images kept per tag (0 keeps all)"));
    m_texts = limitBox(this, tr("Texts kept per tag (0 keeps all)"));
    m_prCurves = limitBox(this, tr("PR curves kept per tag (0 keeps all)"));
    m_tensors = limitBox(this, tr("Summary tensors kept per tag (0 keeps all)"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Scalar points per tag:"), m_scalars);
    form->addRow(tr("&Histograms per tag:"), m_histograms);
    form->addRow(tr("&Images per tag:"), m_images);
    form->addRow(tr("&Texts per tag:"), m_texts);
    form->addRow(tr("&PR curves per tag:"), m_prCurves);
    form->addRow(tr("T&ensors per tag:"), m_tensors);
    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    buttons->button(QDialogButtonBox::RestoreDefaults)->setToolTip(tr("Use the recommended limits"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setLimits(models::summary::SummaryLimits()); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setLimits(load());
}

models::summary::SummaryLimits SummaryLimitsDialog::limits() const
{
    models::summary::SummaryLimits limits;
    limits.scalars = m_scalars->value();
    limits.histograms = m_histograms->value();
    limits.images = m_images->value();
    limits.texts = m_texts->value();
    limits.prCurves = m_prCurves->value();
    limits.tensors = m_tensors->value();
    return limits;
}

void SummaryLimitsDialog::setLimits(const models::summary::SummaryLimits& limits)
{
    m_scalars->setValue(limits.scalars);
    m_histograms->setValue(limits.histograms);
    m_images->setValue(limits.images);
    m_texts->setValue(limits.texts);
    m_prCurves->setValue(limits.prCurves);
    m_tensors->setValue(limits.tensors);
}

models::summary::SummaryLimits SummaryLimitsDialog::load()
{
    const QSettings settings;
    const models::summary::SummaryLimits defaults;
    auto read = [&](const char* key, int fallback) {
        bool ok = false;
        const int value = settings.value(QStringLiteral("summaries/") + QLatin1String(key), fallback).toInt(&ok);
        return ok && value >= 0 ? std::min(value, kMaximum) : fallback;
    };
    models::summary::SummaryLimits limits;
    limits.scalars = read("scalars", defaults.scalars);
    limits.histograms = read("histograms", defaults.histograms);
    limits.images = read("images", defaults.images);
    limits.texts = read("texts", defaults.texts);
    limits.prCurves = read("prCurves", defaults.prCurves);
    limits.tensors = read("tensors", defaults.tensors);
    return limits;
}

void SummaryLimitsDialog::save(const models::summary::SummaryLimits& limits)
{
    QSettings settings;
    settings.setValue(QStringLiteral("summaries/scalars"), limits.scalars);
    settings.setValue(QStringLiteral("summaries/histograms"), limits.histograms);
    settings.setValue(QStringLiteral("summaries/images"), limits.images);
    settings.setValue(QStringLiteral("summaries/texts"), limits.texts);
    settings.setValue(QStringLiteral("summaries/prCurves"), limits.prCurves);
    settings.setValue(QStringLiteral("summaries/tensors"), limits.tensors);
}

} // namespace runlens::app
