# 04-throughput.gp - written by pathstat VERSION report from the spec samples/article.json (sections[0].sections[3].chart).
# Throughput by path (p50 of 1-second intervals)
# Data: 04-throughput.dat.  Edit freely, then render again with
#   gnuplot 04-throughput.gp
# in this folder: it writes 04-throughput.png and 04-throughput.svg.

font = 'DejaVu Sans'
font_size = 12
width = 1200
height = 700
small = sprintf(',%d', font_size - 2)
big = sprintf(',%d', font_size + 2)

set encoding utf8
set datafile missing 'NaN'
# Okabe & Ito's colour-blind-safe palette; dash and point types
# differ as well, so series stay apart in grey print.
set linetype 1 lc rgb '#0072B2' lw 2 dt 1 pt 7 ps 1.3
set linetype 2 lc rgb '#E69F00' lw 2 dt 2 pt 5 ps 1.3
set linetype 3 lc rgb '#009E73' lw 2 dt 3 pt 9 ps 1.3
set linetype 4 lc rgb '#D55E00' lw 2 dt 4 pt 11 ps 1.3
set linetype 5 lc rgb '#CC79A7' lw 2 dt 5 pt 13 ps 1.3
set linetype 6 lc rgb '#56B4E9' lw 2 dt 1 pt 15 ps 1.3
set linetype 7 lc rgb '#000000' lw 2 dt 2 pt 4 ps 1.3
set linetype 8 lc rgb '#999999' lw 2 dt 3 pt 6 ps 1.3
set linetype cycle 8
set border 3 lw 1 lc rgb '#333333'
set tics nomirror out scale 0.6
set style line 100 lc rgb '#dcdcdc' lw 1 dt 1
set grid ytics ls 100, ls 100
set key noenhanced opaque box lc rgb '#bbbbbb' samplen 2.5
set title 'Throughput by path (p50 of 1-second intervals)'
set title noenhanced font big
set label 99 'pathstat · estimator type7, pooled · bars as in the table above' at screen 0.995, screen 0.012 right noenhanced font small tc rgb '#666666'

set style fill solid 0.9 border lc rgb '#333333'
set boxwidth 0.2453 absolute
set xrange [-0.6:4.4]
set bmargin 6
set tmargin 5
set title offset 0,1.4
set key at graph 0.5, graph 1.02 center bottom horizontal reverse Left noopaque nobox
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
set ylabel 'Throughput (Gbit/s)'
set xtics ('A' . "\n" . 'Same AZ (baseline)' 0, \
    'B' . "\n" . 'Cross-AZ, same region' . "\n" . '(baseline)' 1, \
    'C' . "\n" . 'VPC Peering' 2, \
    'D' . "\n" . 'Transit Gateway' . "\n" . 'inter-region peering' 3, \
    'E' . "\n" . 'PrivateLink' . "\n" . '(cross-region)' 4) noenhanced
set label 'not measured' at 4.2667, graph 0.03 left rotate by 90 font small tc rgb '#555555' noenhanced

do for [fmt in 'png svg'] {
	if (fmt eq 'png') {
		set terminal pngcairo size width, height noenhanced background rgb 'white' font sprintf('%s,%d', font, font_size)
	} else {
		set terminal svg size width, height noenhanced dynamic background rgb 'white' font sprintf('%s,%d', font, font_size)
	}
	set output '04-throughput' . '.' . fmt
	plot \
	    '04-throughput.dat' using ($1-0.2667):2 with boxes lt 1 dt solid title 'Single TCP (p50, Gbit/s)', \
	    '' using ($1-0.2667):2:(sprintf('%.2f', $2)) with labels offset 0,0.6 font small notitle, \
	    '' using ($1+0.0000):3 with boxes lt 2 dt solid title '4-parallel TCP (p50, Gbit/s)', \
	    '' using ($1+0.0000):3:(sprintf('%.2f', $3)) with labels offset 0,0.6 font small notitle, \
	    '' using ($1+0.2667):4 with boxes lt 3 dt solid title 'UDP (p50, Gbit/s)', \
	    '' using ($1+0.2667):4:(sprintf('%.2f', $4)) with labels offset 0,0.6 font small notitle
	unset output
}
