#pragma once

#include "models/summary/summarydata.h"

#include <QDialog>

class QSpinBox;

namespace runlens::app {

/// Edits how many values per series the summary readers keep (TensorBoard's reservoir sizes; 0 keeps
/// all). Stored in the user's settings, never in the run folder; used from the next import on.
class SummaryLimitsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SummaryLimitsDialog(QWidget* parent = nullptr);

    models::summary::SummaryLimits limits() const;
    void setLimits(const models::summary::SummaryLimits& limits);

    /// The limits in the settings, or the defaults for those never set.
    static models::summary::SummaryLimits load();
    static void save(const models::summary::SummaryLimits& limits);

private:
    QSpinBox* m_scalars;
    QSpinBox* m_histograms;
    QSpinBox* m_images;
    QSpinBox* m_texts;
    QSpinBox* m_prCurves;
    QSpinBox* m_tensors;
};

} // namespace runlens::app
