#include "ui/charts/ChartWidget.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QVBoxLayout>

#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartStyle.h"

namespace wl::ui::charts {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart;
    styleChart(m_chart);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* png = new QAction(tr("Save Chart as PNG…"), m_view);
    auto* data = new QAction(tr("Save Data as CSV…"), m_view);
    m_view->addAction(png);
    m_view->addAction(data);
    connect(png, &QAction::triggered, this,
            [this] { emit ExportRequests::instance().pngRequested(m_view, m_fileBaseName); });
    connect(data, &QAction::triggered, this,
            [this] { emit ExportRequests::instance().csvRequested(csv(), m_fileBaseName); });
    m_view->setToolTip(tr("Right-click to save the chart or its data"));
}

}  // namespace wl::ui::charts
