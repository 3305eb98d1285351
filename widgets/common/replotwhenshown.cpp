#include "replotwhenshown.h"

#include <qcustomplot.h>

#include <QEvent>

namespace runlens {

namespace {

/// Replots its plot on the plot's next show event, once per pending replot.
class ReplotOnShow final : public QObject
{
public:
    explicit ReplotOnShow(QCustomPlot* plot)
        : QObject(plot)
        , m_plot(plot)
    {
        setObjectName(QStringLiteral("runlens_replotOnShow"));
        plot->installEventFilter(this);
    }

    bool pending = false;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Before the first paint after the show, so the stale buffer is never shown.
        if (watched == m_plot && event->type() == QEvent::Show && pending) {
            pending = false;
            m_plot->replot();
        }
        return false;
    }

private:
    QCustomPlot* m_plot;
};

} // namespace

void replotWhenShown(QCustomPlot* plot)
{
    // The filter is a plain QObject subclass (no meta-object of its own): found by its name.
    auto* deferred = static_cast<ReplotOnShow*>(
        plot->findChild<QObject*>(QStringLiteral("runlens_replotOnShow"), Qt::FindDirectChildrenOnly));
    if (plot->isVisible()) {
        if (deferred)
            deferred->pending = false;
        plot->replot();
        return;
    }
    if (!deferred)
        deferred = new ReplotOnShow(plot);
    deferred->pending = true;
}

} // namespace runlens
