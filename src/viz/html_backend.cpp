// The interactive page: the diagram's SVG (each panel its own viewport, each cell carrying
// its thread, value, warp, offset and bank as data attributes) with a little CSS and
// JavaScript, all inline, so the file works offline and fetches nothing.
#include "svg_document.hpp"
#include "tessera/viz/backends.hpp"

namespace tessera::viz {

namespace {
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
)";

// Hover: same thread (black outline) and same (thread,value) (red) across all panels, or
// the same TMA box (the cells one copy fills), or same offset where cells have neither; the info line shows the cell. Click: isolate the
// thread, shift+click: its warp, click again or Escape: show all. Wheel: zoom the panel
// under the pointer about it; drag: pan it; double-click: reset it.
constexpr const char* kScript = R"(
(function(){
'use strict';
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
function box(svg){return svg.getAttribute('viewBox').split(/\s+/).map(Number);}
function setBox(svg,b){svg.setAttribute('viewBox',b.join(' '));}
var drag=null,moved=false;
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
})();
)";

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
  o += "<div id=\"diagram\">\n" + strip_xml_declaration(svg_document(d, SvgOptions{true})) + "</div>\n";
  o += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return o;
}

}  // namespace tessera::viz
