// The interactive page: the diagram's SVG (each panel its own viewport) with a little CSS
// and JavaScript, all inline, so the file works offline and fetches nothing. Up to
// canvas_cells cells, each cell is an element carrying its thread, value, warp, offset and
// bank as data attributes; past that, each panel's cells are a canvas of one pixel per cell,
// and the same facts come from compact per-cell columns the page decodes once.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "svg_document.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/geometry.hpp"

namespace tessera::viz {

namespace {
// Pages of more cells than this draw each panel's cells on a canvas (docs/cli.md, "Large
// pages"). An element per cell costs up to about 250 bytes and, on hover, a restyle of every
// element: measured in Chromium, 4096 cells make 0.8 MB and a hover painted within about
// 35 ms, 8192 cells 2.1 MB and 110-140 ms. Up to here a page keeps its per-cell elements
// (scripts and tests read them; labels and outlines are exact SVG).
constexpr std::int64_t canvas_cells = 4096;

constexpr const char* kStyle = R"(body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:12px;color:#1a1a1a}
#help{font-size:13px;color:#444;margin-bottom:4px}
#info{position:sticky;top:0;z-index:1;background:#fff;border:1px solid #bbb;padding:4px 8px;font:13px monospace;min-height:2.6em;white-space:pre}
#state{font:13px monospace;color:#1f4fd0;min-height:1.3em}
#diagram svg{max-width:none}
svg.panel{cursor:grab}
svg.panel.panning{cursor:grabbing}
g.cell>rect{stroke:none}
g.cell.same-thread>rect{stroke:#000;stroke-width:3px}
g.cell.same-pair>rect{stroke:#d62728;stroke-width:4px}
g.cell.same-offset>rect{stroke:#000;stroke-width:3px}
g.cell.dim{opacity:.12}
foreignObject.cells>canvas{display:block;width:100%;height:100%;image-rendering:pixelated}
)";

// Hover: same thread (black outline) and same (thread,value) (red) across all panels, or
// the same TMA box (the cells one copy fills), or same offset where cells have neither; the info line shows the cell. Click: isolate the
// thread, shift+click: its warp, click again or Escape: show all. Wheel: zoom the panel
// under the pointer about it; drag: pan it; double-click: reset it.
constexpr const char* kElementScript = R"(
var cells=Array.prototype.slice.call(document.querySelectorAll('g.cell'));
var info=document.getElementById('info'),state=document.getElementById('state');
var isolated=null;
function key(g,k){return g.getAttribute('data-'+k);}
function clearHover(){cells.forEach(function(g){g.classList.remove('same-thread','same-pair','same-offset');});}
function describe(g){
  var t=g.querySelector('title'),s=t?t.textContent:'';
  var parts=['panel '+key(g,'p'),'cell ('+key(g,'r')+','+key(g,'c')+')'];
  [['t','thread'],['v','value'],['w','warp'],['x','box'],['o','offset'],['b','bank']].forEach(function(kv){
    var x=key(g,kv[0]);if(x!==null)parts.push(kv[1]+' '+x);});
  return parts.join('  ')+(s?'\n'+s:'');
}
function hover(g){
  clearHover();
  var t=key(g,'t'),v=key(g,'v'),o=key(g,'o'),x=key(g,'x');
  cells.forEach(function(h){
    if(t!==null){
      if(key(h,'t')===t){h.classList.add('same-thread');if(key(h,'v')===v)h.classList.add('same-pair');}
    }else if(x!==null){
      if(key(h,'x')===x)h.classList.add('same-thread');
    }else if(o!==null&&key(h,'o')===o&&key(h,'s')===key(g,'s'))h.classList.add('same-offset');
  });
  info.textContent=describe(g);
}
function isolate(kind,val){
  if(isolated&&isolated.kind===kind&&isolated.val===val){isolated=null;}
  else isolated={kind:kind,val:val};
  cells.forEach(function(h){
    var keep=!isolated||key(h,isolated.kind)===isolated.val;
    h.classList.toggle('dim',!keep);
  });
  state.textContent=isolated?('isolated: '+(kind==='t'?'thread ':'warp ')+val+'  (click again or Esc: show all)'):'';
}
cells.forEach(function(g){
  g.addEventListener('mouseenter',function(){hover(g);});
  g.addEventListener('click',function(e){
    if(moved)return;
    var kind=e.shiftKey?'w':'t',val=key(g,kind);
    if(val!==null)isolate(kind,val);
  });
});
document.addEventListener('keydown',function(e){if(e.key==='Escape'&&isolated)isolate(isolated.kind,isolated.val);});
)";

// Zoom and pan, the same for both forms of the page.
constexpr const char* kViewScript = R"(
function box(svg){return svg.getAttribute('viewBox').split(/\s+/).map(Number);}
function setBox(svg,b){svg.setAttribute('viewBox',b.join(' '));}
Array.prototype.slice.call(document.querySelectorAll('svg.panel')).forEach(function(svg){
  svg.addEventListener('wheel',function(e){
    e.preventDefault();
    var b=box(svg),r=svg.getBoundingClientRect();
    var fx=r.width?(e.clientX-r.left)/r.width:0.5,fy=r.height?(e.clientY-r.top)/r.height:0.5;
    var k=e.deltaY<0?0.8:1.25,w=b[2]*k,h=b[3]*k;
    setBox(svg,[b[0]+(b[2]-w)*fx,b[1]+(b[3]-h)*fy,w,h]);
  },{passive:false});
  svg.addEventListener('mousedown',function(e){drag={svg:svg,x:e.clientX,y:e.clientY,b:box(svg)};moved=false;svg.classList.add('panning');});
  svg.addEventListener('dblclick',function(){svg.setAttribute('viewBox',svg.getAttribute('data-box'));});
});
document.addEventListener('mousemove',function(e){
  if(!drag)return;
  var r=drag.svg.getBoundingClientRect(),dx=e.clientX-drag.x,dy=e.clientY-drag.y;
  if(Math.abs(dx)+Math.abs(dy)>3)moved=true;
  if(!moved)return;
  var b=drag.b;
  setBox(drag.svg,[b[0]-dx*b[2]/r.width,b[1]-dy*b[3]/r.height,b[2],b[3]]);
});
document.addEventListener('mouseup',function(){if(drag)drag.svg.classList.remove('panning');drag=null;setTimeout(function(){moved=false;},0);});
)";

// The canvas form (pages past canvas_cells): the same gestures over a canvas per panel. The
// cells' data arrive once, zlib-compressed in a script element; per-cell facts (what the
// element form keeps in data attributes and <title>s) are computed from it on hover.
constexpr const char* kCanvasScript = R"(
var info=document.getElementById('info'),state=document.getElementById('state');
var api={ready:false,error:null,outlined:{thread:[],pair:[]},dimmed:0};
window.tesseraCells=api;
var NONE=-2147483648,COL={},P=[],RGB=[],TS=[],LBL=[],isolated=null,current=-1;
function has(n,i){var c=COL[n];return c.hi?!(c.hi[i]===NONE&&c.lo[i]===0):c.lo[i]!==NONE;}
function eq(n,i,j){var c=COL[n];return c.lo[i]===c.lo[j]&&(!c.hi||c.hi[i]===c.hi[j]);}
function str(n,i){var c=COL[n];return c.hi?(BigInt(c.hi[i])*4294967296n+BigInt(c.lo[i]>>>0)).toString():String(c.lo[i]);}
function warp(i){var c=COL.t;return c.hi?(BigInt(c.hi[i])*4294967296n+BigInt(c.lo[i]>>>0))/BigInt(WL)+'':String(Math.trunc(c.lo[i]/WL));}
function where(i){var q=P[0];for(var k=0;k<P.length;k++)if(i>=P[k].base&&i<P[k].base+P[k].n){q=P[k];break;}
  var off=i-q.base,r=Math.floor(off/q.cols);return {q:q,r:r,c:off-r*q.cols};}
function field(code,i,w){
  if(code==='r')return String(w.r);if(code==='c')return String(w.c);if(code==='w')return warp(i);return str(code,i);}
function tooltip(i,w){
  var t=TS[COL.tpl.lo[i]],s=t[0],e=0;
  for(var k=1;k<t.length;k++){var code=t[k].charAt(0);s+=(code==='#'?str('e'+(e++),i):field(code,i,w))+t[k].slice(1);}
  return s;}
function describe(i){
  var w=where(i),parts=['panel '+w.q.p,'cell ('+w.r+','+w.c+')'];
  [['t','thread'],['v','value'],['w','warp'],['x','box'],['o','offset'],['b','bank']].forEach(function(kv){
    var k=kv[0]==='w'?'t':kv[0];if(has(k,i))parts.push(kv[1]+' '+(kv[0]==='w'?warp(i):str(k,i)));});
  var s=tooltip(i,w);return parts.join('  ')+(s?'\n'+s:'');}
function rect(q,i,inset){var off=i-q.base,r=Math.floor(off/q.cols),c=off-r*q.cols;
  return 'M'+(q.gx+c*q.cw+inset)+' '+(q.gy+r*q.ch+inset)+'h'+(q.cw-2*inset)+'v'+(q.ch-2*inset)+'h'+(2*inset-q.cw)+'z';}
function name(q,i){var off=i-q.base,r=Math.floor(off/q.cols);return q.p+':'+r+','+(off-r*q.cols);}
function setPath(q,k,d){if(q[k+'d']!==d){q[k].setAttribute('d',d);q[k+'d']=d;}}
function hover(j){
  if(j===current)return;current=j;
  // Cells equal to j in the column that relates them (thread, else box, else offset); an equal
  // word is never kNone's, as j has that fact. The same value as well: the red pair outline.
  var by=has('t',j)?'t':has('x',j)?'x':has('o',j)?'o':null,sj=where(j).q.s,out={thread:[],pair:[]};
  var K=by&&COL[by],kl=K&&K.lo,kh=K&&K.hi,key=kl&&kl[j],keyh=kh?kh[j]:0;
  var vl=COL.v.lo,vh=COL.v.hi,val=vl[j],valh=vh?vh[j]:0;
  P.forEach(function(q){
    var th=[],pr=[],end=(!by||(by==='o'&&q.s!==sj))?q.base:q.base+q.n;
    for(var i=q.base;i<end;i++){
      if(kl[i]!==key||(kh&&kh[i]!==keyh))continue;
      if(by==='t'&&vl[i]===val&&(!vh||vh[i]===valh)){pr.push(rect(q,i,0));out.pair.push(name(q,i));}
      else{th.push(rect(q,i,0));out.thread.push(name(q,i));}
    }
    setPath(q,'thread',th.join(''));setPath(q,'pair',pr.join(''));
  });
  api.outlined=out;info.textContent=describe(j);}
function keep(i){
  if(!isolated)return true;if(!has('t',i))return false;
  return isolated.kind==='t'?eq('t',i,isolated.j):warp(i)===isolated.val;}
function paint(){
  var dimmed=0;
  P.forEach(function(q){
    if(!q.n)return;
    var img=q.ctx.createImageData(q.cols,q.rows),px=img.data;
    for(var i=q.base,k=0;i<q.base+q.n;i++,k+=4){
      if(!COL.k.lo[i])continue;
      var rgb=RGB[COL.f.lo[i]],kept=keep(i),a=kept?1:0.12;
      if(!kept)dimmed++;
      px[k]=Math.round(255-(255-rgb[0])*a);px[k+1]=Math.round(255-(255-rgb[1])*a);px[k+2]=Math.round(255-(255-rgb[2])*a);px[k+3]=255;
      var ls=LBL[i];if(ls)for(var m=0;m<ls.length;m++)ls[m].style.opacity=kept?'':'0.12';
    }
    q.ctx.putImageData(img,0,0);
  });
  api.dimmed=dimmed;}
function isolate(j,kind){
  var val=kind==='t'?str('t',j):warp(j);
  if(isolated&&isolated.kind===kind&&isolated.val===val)isolated=null;else isolated={kind:kind,val:val,j:j};
  paint();
  state.textContent=isolated?('isolated: '+(kind==='t'?'thread ':'warp ')+val+'  (click again or Esc: show all)'):'';}
function at(q,e){
  var m=q.svg.getScreenCTM();if(!m)return -1;
  var pt=q.svg.createSVGPoint();pt.x=e.clientX;pt.y=e.clientY;var u=pt.matrixTransform(m.inverse());
  var c=Math.floor((u.x-q.gx)/q.cw),r=Math.floor((u.y-q.gy)/q.ch);
  if(r<0||c<0||r>=q.rows||c>=q.cols)return -1;
  var i=q.base+r*q.cols+c;return COL.k.lo[i]?i:-1;}
function init(buf){
  var dv=new DataView(buf),len=dv.getUint32(0,true);
  var meta=JSON.parse(new TextDecoder().decode(new Uint8Array(buf,4,len))),off=4+len+((4-len%4)%4),n=meta.cells;
  meta.columns.forEach(function(c){
    var parts=[];for(var h=0;h<(c.wide?2:1);h++){var a=new Int32Array(buf,off,n);off+=4*n;
      for(var i=1;i<n;i++)a[i]=(a[i-1]+a[i])|0;parts.push(a);}
    COL[c.name]={lo:parts[0],hi:c.wide?parts[1]:null};});
  RGB=meta.colors.map(function(h){return [parseInt(h.substr(1,2),16),parseInt(h.substr(3,2),16),parseInt(h.substr(5,2),16)];});
  TS=meta.templates.map(function(t){return t.split('\x01');});
  var base=0;
  meta.panels.forEach(function(m,p){
    var fo=document.querySelector('foreignObject.cells[data-p="'+p+'"]'),svg=fo.ownerSVGElement;
    var q={p:p,base:base,n:m.rows*m.cols,rows:m.rows,cols:m.cols,s:m.own_offsets?p:-1,svg:svg,
      gx:fo.x.baseVal.value,gy:fo.y.baseVal.value,cw:m.cols?fo.width.baseVal.value/m.cols:1,ch:m.rows?fo.height.baseVal.value/m.rows:1,
      ctx:fo.querySelector('canvas').getContext('2d'),thread:svg.querySelector('path.hover-thread'),pair:svg.querySelector('path.hover-pair')};
    var texts=svg.querySelectorAll('g.labels>text'),t=0;
    for(var i=base;i<base+q.n;i++)if(COL.nl.lo[i]){LBL[i]=Array.prototype.slice.call(texts,t,t+COL.nl.lo[i]);t+=COL.nl.lo[i];}
    svg.querySelectorAll('path.mark').forEach(function(path){
      var h=Number(path.getAttribute('data-h')),inset=Number(path.getAttribute('data-inset')),d=[];
      for(var i=base;i<base+q.n;i++)if(COL.h.lo[i]===h)d.push(rect(q,i,inset));
      path.setAttribute('d',d.join(''));});
    svg.addEventListener('mousemove',function(e){if(drag&&moved)return;var i=at(q,e);if(i>=0)hover(i);});
    svg.addEventListener('click',function(e){if(moved)return;var i=at(q,e);if(i>=0&&has('t',i))isolate(i,e.shiftKey?'w':'t');});
    P.push(q);base+=q.n;});
  document.addEventListener('keydown',function(e){if(e.key==='Escape'&&isolated)isolate(isolated.j,isolated.kind);});
  paint();
  // Where to point at cell (p,r,c): a whole pixel inside it where there is one (mouse events
  // carry whole pixels), else its centre.
  api.center=function(p,r,c){var q=P[p],m=q.svg.getScreenCTM();
    function screen(x,y){var pt=q.svg.createSVGPoint();pt.x=x;pt.y=y;return pt.matrixTransform(m);}
    var a=screen(q.gx+c*q.cw,q.gy+r*q.ch),b=screen(q.gx+(c+1)*q.cw,q.gy+(r+1)*q.ch);
    function pick(lo,hi){var k=Math.ceil(lo+1e-6);return k<hi-1e-6?k:(lo+hi)/2;}
    return {x:pick(a.x,b.x),y:pick(a.y,b.y)};};
  api.cell=function(p,r,c){var q=P[p],i=q.base+r*q.cols+c,o={kind:COL.k.lo[i]};
    ['t','v','o','b','x'].forEach(function(k){o[k]=has(k,i)?str(k,i):null;});o.w=has('t',i)?warp(i):null;
    o.tooltip=tooltip(i,where(i));return o;};
  api.ready=true;info.textContent='hover a cell';}
var data=document.querySelector('script[type="application/x-tessera-cells"]');
if(typeof DecompressionStream==='undefined'){api.error=info.textContent='this browser cannot read the page\'s cell data (it lacks DecompressionStream)';}
else{
  var bin=atob(data.textContent.trim()),u8=new Uint8Array(bin.length);for(var i=0;i<bin.length;i++)u8[i]=bin.charCodeAt(i);
  new Response(new Blob([u8]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer().then(init)
    .catch(function(e){api.error=String(e);info.textContent='cannot read the page\'s cell data: '+e;});
}
)";

// ---- the canvas form's cell data --------------------------------------------------------

// Integer columns over every cell of every panel (panel by panel, row-major), kNone where a
// cell has no such fact. Written as int32 (kNone: INT32_MIN) when every value fits, else as
// two int32 columns (low word, high word: kNone is then (0, INT32_MIN)); each column as the
// differences of consecutive cells (mod 2^32), so that the affine runs of a layout compress
// to almost nothing.
struct Column {
  std::string name;
  std::vector<std::int64_t> values;
};

void append_u32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
}

bool narrow(const std::vector<std::int64_t>& v) {
  for (std::int64_t x : v)
    if (x != Cell::kNone && (x <= std::numeric_limits<std::int32_t>::min() || x > std::numeric_limits<std::int32_t>::max()))
      return false;
  return true;
}

void append_deltas(std::string& out, const std::vector<std::uint32_t>& words) {
  std::uint32_t prev = 0;
  for (std::uint32_t w : words) {
    append_u32(out, w - prev);
    prev = w;
  }
}

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      o += buf;
    } else {
      o += static_cast<char>(ch);
    }
  }
  return o + "\"";
}

// A tooltip as a template and the numbers it holds: each maximal run of digits becomes
// \x01 and a code, the cell fact whose decimal text it equals (r, c: row, column; o, t, v,
// x, b, w: offset, thread, value, box, bank, warp), else '#', the next of the cell's extra
// numbers (columns e0, e1, ...). Tooltips that differ only in their numbers share a
// template; the page puts the digits back, so the text it shows is the tooltip exactly.
struct TooltipCode {
  std::string templ;
  std::vector<std::int64_t> extras;
};

TooltipCode encode_tooltip(const std::string& tip, const std::vector<std::pair<char, std::int64_t>>& facts) {
  TooltipCode out;
  for (std::size_t i = 0; i < tip.size();) {
    if (tip[i] < '0' || tip[i] > '9') {
      out.templ += tip[i++];
      continue;
    }
    std::size_t j = i;
    while (j < tip.size() && tip[j] >= '0' && tip[j] <= '9') ++j;
    const std::string digits = tip.substr(i, j - i);
    i = j;
    char code = 0;
    for (const auto& [c, v] : facts)
      if (v != Cell::kNone && std::to_string(v) == digits) {
        code = c;
        break;
      }
    const bool canonical = digits.size() <= 18 && (digits.size() == 1 || digits[0] != '0');
    if (code == 0 && !canonical) {
      out.templ += digits;
      continue;
    }
    out.templ += '\x01';
    out.templ += code ? code : '#';
    if (!code) out.extras.push_back(std::stoll(digits));
  }
  return out;
}

std::string base64(const std::string& in) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((in.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < in.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) v |= static_cast<unsigned char>(in[i + 2]);
    o += abc[(v >> 18) & 63];
    o += abc[(v >> 12) & 63];
    o += i + 1 < in.size() ? abc[(v >> 6) & 63] : '=';
    o += i + 2 < in.size() ? abc[v & 63] : '=';
  }
  return o;
}

std::string zlib_compress(const std::string& in) {
  uLongf size = compressBound(static_cast<uLong>(in.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), 9) != Z_OK)
    throw std::runtime_error("cannot compress the page's cell data");
  out.resize(size);
  return out;
}

// The page's cell data: a little-endian u32 length, JSON (panels, colours, templates, column
// names), padding to 4 bytes, then the columns; zlib-compressed, in base64.
std::string cell_data(const Diagram& d, const Geometry& g) {
  std::vector<Column> cols;
  for (const char* n : {"k", "f", "t", "v", "o", "x", "b", "h", "nl", "tpl"}) cols.push_back(Column{n, {}});
  auto col = [&](std::size_t k) -> std::vector<std::int64_t>& { return cols[k].values; };
  std::vector<std::vector<std::int64_t>> extras;
  std::map<std::uint32_t, std::int64_t> color_index;
  std::vector<Rgb> colors;
  std::map<std::string, std::int64_t> template_index;
  std::vector<std::string> templates;
  std::string panels;
  std::int64_t n = 0;
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const Panel& p = d.panels[i];
    panels += std::string(i ? "," : "") + "{\"rows\":" + std::to_string(p.rows.count) + ",\"cols\":" +
              std::to_string(p.cols.count) + ",\"own_offsets\":" + (p.offset_name.empty() ? "false" : "true") + "}";
    for (std::int64_t r = 0; r < p.rows.count; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c, ++n) {
        const Cell& cell = p.at(r, c);
        const std::int64_t kind = cell.present ? 2 : cell.tooltip.empty() ? 0 : 1;
        std::int64_t fill = 0;
        if (kind) {
          const Rgb rgb = effective_fill(cell);
          const std::uint32_t key = (std::uint32_t{rgb.r} << 16) | (std::uint32_t{rgb.g} << 8) | rgb.b;
          auto [it, fresh] = color_index.emplace(key, static_cast<std::int64_t>(colors.size()));
          if (fresh) colors.push_back(rgb);
          fill = it->second;
        }
        const auto fact = [&](std::int64_t v) { return cell.present ? v : Cell::kNone; };
        const std::int64_t t = fact(cell.thread), v = fact(cell.value), off = fact(cell.offset), x = fact(cell.box),
                           bank = cell.present ? page_bank(cell, d.element_bits) : Cell::kNone;
        const std::int64_t labels = cell.present && !g.panels[i].heatmap ? (cell.label2.empty() ? 1 : 2) : 0;
        const TooltipCode tip = encode_tooltip(
            drawable_text(cell.tooltip),
            {{'r', r}, {'c', c}, {'o', off}, {'t', t}, {'v', v}, {'x', x}, {'b', bank}, {'w', fact(cell.warp())}});
        auto [it, fresh] = template_index.emplace(tip.templ, static_cast<std::int64_t>(templates.size()));
        if (fresh) templates.push_back(tip.templ);
        const std::int64_t row[] = {kind, fill, t, v, off, x, bank, static_cast<std::int64_t>(cell.highlight), labels,
                                    it->second};
        for (std::size_t k = 0; k < std::size(row); ++k) col(k).push_back(row[k]);
        while (extras.size() < tip.extras.size()) extras.emplace_back(static_cast<std::size_t>(n), 0);
        for (std::size_t k = 0; k < extras.size(); ++k) extras[k].push_back(k < tip.extras.size() ? tip.extras[k] : 0);
      }
  }
  for (std::size_t k = 0; k < extras.size(); ++k) cols.push_back(Column{"e" + std::to_string(k), std::move(extras[k])});

  std::string meta = "{\"cells\":" + std::to_string(n) + ",\"panels\":[" + panels + "],\"colors\":[";
  for (std::size_t k = 0; k < colors.size(); ++k) meta += std::string(k ? "," : "") + "\"" + hex(colors[k]) + "\"";
  meta += "],\"templates\":[";
  for (std::size_t k = 0; k < templates.size(); ++k) meta += std::string(k ? "," : "") + json_string(templates[k]);
  meta += "],\"columns\":[";
  std::string body;
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const bool thin = narrow(cols[k].values);
    meta += std::string(k ? "," : "") + "{\"name\":\"" + cols[k].name + "\",\"wide\":" + (thin ? "false" : "true") + "}";
    std::vector<std::uint32_t> lo, hi;
    for (std::int64_t v : cols[k].values) {
      if (thin) {
        lo.push_back(static_cast<std::uint32_t>(static_cast<std::int32_t>(
            v == Cell::kNone ? std::numeric_limits<std::int32_t>::min() : v)));
      } else {
        lo.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
        hi.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) >> 32));
      }
    }
    append_deltas(body, lo);
    if (!thin) append_deltas(body, hi);
  }
  meta += "]}";
  std::string raw;
  append_u32(raw, static_cast<std::uint32_t>(meta.size()));
  raw += meta;
  raw.append((4 - meta.size() % 4) % 4, ' ');
  raw += body;
  return base64(zlib_compress(raw));
}

std::string strip_xml_declaration(std::string svg) {
  const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  if (svg.compare(0, decl.size(), decl) == 0) svg.erase(0, decl.size());
  return svg;
}
}  // namespace

std::string to_html(const Diagram& d) {
  std::string title = d.title;
  if (title.empty() && !d.panels.empty()) title = d.panels.front().title;
  if (title.empty()) title = "tessera diagram";
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += "<meta name=\"generator\" content=\"tessera\">\n";
  o += "<title>" + xml_escape(title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
  o += "<div id=\"help\">Hover a cell: every cell of its thread is outlined in black, the same (thread, value) in red, "
       "in all panels. Click: isolate its thread; shift+click: its warp; click again or Esc: show all. "
       "Wheel: zoom a panel; drag: pan; double-click: reset.</div>\n";
  o += "<div id=\"info\">hover a cell</div>\n<div id=\"state\"></div>\n";
  const bool canvas = d.num_cells() > canvas_cells;
  o += "<div id=\"diagram\">\n" +
       strip_xml_declaration(svg_document(d, SvgOptions{true, canvas ? CellLayer::canvas : CellLayer::elements})) +
       "</div>\n";
  if (canvas)
    o += "<script type=\"application/x-tessera-cells\">\n" + cell_data(d, compute_geometry(d)) + "\n</script>\n";
  // WL: lanes per warp (wavefront), by which the page groups threads into warps.
  o += "<script>\n(function(){\n'use strict';\nvar drag=null,moved=false,WL=" + std::to_string(d.warp_lanes()) + ";" +
       std::string(canvas ? kCanvasScript : kElementScript) +
       kViewScript + "})();\n</script>\n</body>\n</html>\n";
  return o;
}

}  // namespace tessera::viz
