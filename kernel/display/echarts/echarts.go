// Package echarts holds Apache ECharts' browser bundle, vendored from the npm
// package by scripts/vendor-echarts.sh (with its LICENSE and NOTICE), so that
// notebooks load the library from their own outputs and never from a CDN.
package echarts

import _ "embed"

// Version is the vendored echarts release.
const Version = "5.6.0"

// JS is dist/echarts.min.js of that release.
//
//go:embed echarts.min.js
var JS string
