// mbsolve result viewer: the page script that scripts/mbsolve-view inlines into one offline HTML
// page, bundled with three.js by esbuild (viewer/package.json `npm run build` -> dist/viewer.js).
// The page holds the data as a JSON block (#mbs-data: times, nodes, elements from /connectivity,
// plot series) and base64 blocks of little-endian float32 arrays (#mbs-bin-<id>).
// State for tests and scripts: window.__mbsView (see the end of this file).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

const scriptStart = performance.now(); // ms since navigation start (HTML parsed before it)
const errors = [];
window.addEventListener('error', (e) => errors.push(String(e.message || e)));

function bin(id) {
  const text = document.getElementById('mbs-bin-' + id).textContent.trim();
  if (Uint8Array.fromBase64) return new Float32Array(Uint8Array.fromBase64(text).buffer);
  const s = atob(text);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; ++i) bytes[i] = s.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

const D = JSON.parse(document.getElementById('mbs-data').textContent);
const N = D.nodes.labels.length;
const F = D.times.length;
const pos = N > 0 ? bin('pos') : new Float32Array(0);   // [frame][node][3], relative to D.center
const quat = N > 0 ? bin('quat') : new Float32Array(0); // [frame][node][4] x, y, z, w
const C = new THREE.Vector3(...D.center);
const $ = (id) => document.getElementById(id);

// ---- scene
const view = $('mbs-3d');
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setClearColor(0xf4f6f8);
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.add(new THREE.AmbientLight(0xffffff, 1.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(40, 1, 1e-3, 1e3);
const controls = new OrbitControls(camera, renderer.domElement);

// Extent of the motion: every node at every frame (positions are relative to the centre).
const lo = new THREE.Vector3(Infinity, Infinity, Infinity);
const hi = new THREE.Vector3(-Infinity, -Infinity, -Infinity);
{
  const a = [Infinity, Infinity, Infinity], b = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < pos.length; k += 3)
    for (let c = 0; c < 3; ++c) {
      const v = pos[k + c];
      if (v < a[c]) a[c] = v;
      if (v > b[c]) b[c] = v;
    }
  lo.set(a[0], a[1], a[2]);
  hi.set(b[0], b[1], b[2]);
}
if (N === 0) { lo.set(-1, -1, -1); hi.set(1, 1, 1); }
const ext = new THREE.Vector3().subVectors(hi, lo);
const L = Math.max(ext.length(), 1e-6 * Math.max(1, C.length()), 1e-9);
// Glyph sizes: a fraction of the motion's extent, and of the model's typical element length h
// (the median distance between an element's points and its nodes at the first frame).
function typicalLength() {
  const d = [], a = new THREE.Vector3(), b = new THREE.Vector3();
  for (const e of D.elements) {
    let prev = null;
    for (const r of e.refs) {
      const i = 3 * r[0];
      a.set(pos[i], pos[i + 1], pos[i + 2]);
      const len = Math.hypot(r[1], r[2], r[3]);
      if (len > 1e-12) d.push(len);
      if (prev && a.distanceTo(prev) > 1e-12) d.push(a.distanceTo(prev));
      prev = b.copy(a).clone();
    }
  }
  d.sort((x, y) => x - y);
  return d.length ? d[Math.floor(d.length / 2)] : L;
}
const h = typicalLength();
const S = { triad: Math.min(0.08 * L, 0.5 * h), node: Math.min(0.008 * L, 0.08 * h),
  body: Math.min(0.02 * L, 0.2 * h), joint: Math.min(0.014 * L, 0.15 * h),
  tube: Math.min(0.006 * L, 0.06 * h) };
// Planar model: look along its thin axis; else an oblique view with z up.
const thin = [ext.x, ext.y, ext.z].indexOf(Math.min(ext.x, ext.y, ext.z));
const planar = Math.min(ext.x, ext.y, ext.z) < 0.02 * L;

function nodeFrame(f, i, p, q) {
  const a = 3 * (f * N + i), b = 4 * (f * N + i);
  p.set(pos[a], pos[a + 1], pos[a + 2]);
  q.set(quat[b], quat[b + 1], quat[b + 2], quat[b + 3]);
}

// Nodes: a small sphere each (instanced) and a triad (red x, green y, blue z of the node frame).
const nodeMesh = new THREE.InstancedMesh(new THREE.SphereGeometry(S.node, 12, 8),
  new THREE.MeshStandardMaterial({ color: 0x222222 }), Math.max(N, 1));
nodeMesh.count = N;
scene.add(nodeMesh);
const triadGeom = new THREE.BufferGeometry();
const triadPos = new Float32Array(N * 18), triadCol = new Float32Array(N * 18);
const axisColors = [[0.85, 0.1, 0.1], [0.1, 0.6, 0.1], [0.1, 0.25, 0.9]];
for (let i = 0; i < N; ++i)
  for (let a = 0; a < 3; ++a)
    for (let v = 0; v < 2; ++v) triadCol.set(axisColors[a], 18 * i + 6 * a + 3 * v);
triadGeom.setAttribute('position', new THREE.BufferAttribute(triadPos, 3));
triadGeom.setAttribute('color', new THREE.BufferAttribute(triadCol, 3));
scene.add(new THREE.LineSegments(triadGeom, new THREE.LineBasicMaterial({ vertexColors: true })));

// Elements: bodies (sphere at the centre of mass), joints (octahedron at node 1's point; clamps
// a grey ground block), rods/springs (line between their points), beams (tube through their
// points), and thin arms from each node to the element's points on it (the links' geometry).
const bodies = [], joints = [], lines = [], beams = [], arms = [], grounds = [];
for (const e of D.elements) {
  if (!e.refs.length) continue;
  const t = e.type;
  if (e.cat === 'body') bodies.push(e);
  else if (e.cat === 'beam3' || e.cat === 'beam2') beams.push(e);
  else if (e.cat === 'joint' && (t === 'clamp' || /pin$/.test(t) && e.refs.length === 1)) grounds.push(e);
  else if (e.cat === 'joint') {
    joints.push(e);
    if (e.refs.length >= 2 && /rod|deformable|spring|distance/.test(t)) lines.push(e);
  }
  for (const r of e.refs) if (Math.hypot(r[1], r[2], r[3]) > 1e-12) arms.push(r);
}
function instanced(geom, color, n) {
  const m = new THREE.InstancedMesh(geom, new THREE.MeshStandardMaterial({ color }), Math.max(n, 1));
  m.count = n;
  scene.add(m);
  return m;
}
const bodyMesh = instanced(new THREE.SphereGeometry(S.body, 16, 12), 0xe8892b, bodies.length);
const jointMesh = instanced(new THREE.OctahedronGeometry(S.joint), 0x2b6fe8, joints.length);
const groundMesh = instanced(new THREE.BoxGeometry(3 * S.joint, 3 * S.joint, 3 * S.joint), 0x8a8f96,
  grounds.length);
function segments(n, color) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(n, 1)), 3));
  g.setDrawRange(0, 2 * n);
  const l = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color }));
  scene.add(l);
  return g;
}
const lineGeom = segments(lines.length, 0x119955);
const armGeom = segments(arms.length, 0x555b66);
const beamMat = new THREE.MeshStandardMaterial({ color: 0x7a4fc9 });
const beamMeshes = beams.map(() => { const m = new THREE.Mesh(new THREE.BufferGeometry(), beamMat); scene.add(m); return m; });
// Reference grid in the plane of the model (planar) or under it (z up).
const grid = new THREE.GridHelper(1.2 * L, 20, 0xc9ced6, 0xdde1e6);
if (planar) {
  if (thin === 2) grid.rotation.x = Math.PI / 2;
  if (thin === 0) grid.rotation.z = Math.PI / 2;
  grid.position.setComponent(thin, lo.getComponent(thin) - 0.05 * L);
} else {
  grid.rotation.x = Math.PI / 2;
  grid.position.set((lo.x + hi.x) / 2, (lo.y + hi.y) / 2, lo.z);
}
scene.add(grid);

// ---- state at a frame
const P = Array.from({ length: N }, () => new THREE.Vector3());
const Q = Array.from({ length: N }, () => new THREE.Quaternion());
const tmpM = new THREE.Matrix4(), tmpV = new THREE.Vector3(), one = new THREE.Vector3(1, 1, 1);
const identityQ = new THREE.Quaternion();
function refPoint(r, out) {
  return out.set(r[1], r[2], r[3]).applyQuaternion(Q[r[0]]).add(P[r[0]]);
}
let frame = 0;
function setFrame(f) {
  frame = Math.max(0, Math.min(F - 1, f | 0));
  for (let i = 0; i < N; ++i) nodeFrame(frame, i, P[i], Q[i]);
  for (let i = 0; i < N; ++i) {
    nodeMesh.setMatrixAt(i, tmpM.compose(P[i], identityQ, one));
    for (let a = 0; a < 3; ++a) {
      tmpV.set(a === 0 ? 1 : 0, a === 1 ? 1 : 0, a === 2 ? 1 : 0).applyQuaternion(Q[i]).multiplyScalar(S.triad);
      triadPos.set([P[i].x, P[i].y, P[i].z, P[i].x + tmpV.x, P[i].y + tmpV.y, P[i].z + tmpV.z], 18 * i + 6 * a);
    }
  }
  nodeMesh.instanceMatrix.needsUpdate = true;
  triadGeom.attributes.position.needsUpdate = true;
  triadGeom.computeBoundingSphere();
  const place = (mesh, list, rot) => {
    list.forEach((e, k) => {
      refPoint(e.refs[0], tmpV);
      mesh.setMatrixAt(k, tmpM.compose(tmpV, rot ? Q[e.refs[0][0]] : identityQ, one));
    });
    mesh.instanceMatrix.needsUpdate = true;
    mesh.computeBoundingSphere();
  };
  place(bodyMesh, bodies, false);
  place(jointMesh, joints, false);
  place(groundMesh, grounds, true);
  const a = new THREE.Vector3(), b = new THREE.Vector3();
  const lp = lineGeom.attributes.position.array;
  lines.forEach((e, k) => { refPoint(e.refs[0], a); refPoint(e.refs[1], b); lp.set([a.x, a.y, a.z, b.x, b.y, b.z], 6 * k); });
  lineGeom.attributes.position.needsUpdate = true;
  lineGeom.computeBoundingSphere();
  const ap = armGeom.attributes.position.array;
  arms.forEach((r, k) => { const p = P[r[0]]; refPoint(r, b); ap.set([p.x, p.y, p.z, b.x, b.y, b.z], 6 * k); });
  armGeom.attributes.position.needsUpdate = true;
  armGeom.computeBoundingSphere();
  beams.forEach((e, k) => {
    const pts = e.refs.map((r) => refPoint(r, new THREE.Vector3()));
    const curve = new THREE.CatmullRomCurve3(pts);
    beamMeshes[k].geometry.dispose();
    beamMeshes[k].geometry = new THREE.TubeGeometry(curve, 8 * (pts.length - 1), S.tube, 8, false);
  });
  $('mbs-slider').value = String(frame);
  $('mbs-time').textContent = 't = ' + D.times[frame].toPrecision(6) + ' s';
  drawPlot();
}

// ---- camera: fit to the motion's extent
const home = {};
function fit() {
  const mid = new THREE.Vector3().addVectors(lo, hi).multiplyScalar(0.5);
  const dir = planar ? new THREE.Vector3().setComponent(thin, 1)
    : new THREE.Vector3(1, -1.4, 0.8).normalize();
  camera.up.set(0, 0, 1);
  if (planar) camera.up.set(thin === 1 ? 0 : 0, thin === 1 ? 0 : 1, thin === 1 ? 1 : 0);
  const dist = 0.5 * L / Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) * 0.9 + 1e-9;
  camera.position.copy(mid).addScaledVector(dir, dist);
  camera.near = dist / 1000;
  camera.far = dist * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(mid);
  controls.update();
  home.p = camera.position.clone(); home.t = mid.clone(); home.up = camera.up.clone();
}
function resetView() {
  camera.position.copy(home.p); camera.up.copy(home.up); controls.target.copy(home.t); controls.update();
}
function resize() {
  const w = view.clientWidth, h = view.clientHeight;
  renderer.setSize(w, h);
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
}

// ---- traces (click a node) and hover labels
const traces = new Map();
function toggleTrace(i) {
  if (traces.has(i)) { scene.remove(traces.get(i)); traces.delete(i); return; }
  const g = new THREE.BufferGeometry();
  const a = new Float32Array(3 * F);
  for (let f = 0; f < F; ++f) a.set(pos.subarray(3 * (f * N + i), 3 * (f * N + i) + 3), 3 * f);
  g.setAttribute('position', new THREE.BufferAttribute(a, 3));
  const l = new THREE.Line(g, new THREE.LineBasicMaterial({ color: 0xd0306a }));
  traces.set(i, l);
  scene.add(l);
}
function screenOf(v) {
  const r = renderer.domElement.getBoundingClientRect();
  const p = v.clone().project(camera);
  return [r.left + (p.x + 1) / 2 * r.width, r.top + (1 - p.y) / 2 * r.height];
}
function pickables() {
  const out = [];
  for (let i = 0; i < N; ++i)
    out.push({ p: P[i], node: i, text: `node ${D.nodes.labels[i]} (${D.nodes.types[i]}): ${D.nodes.names[i]}` });
  for (const e of [...bodies, ...joints, ...grounds, ...beams])
    out.push({ p: refPoint(e.refs[0], new THREE.Vector3()), text: `${e.cat} ${e.label} (${e.type}): ${e.name}` });
  return out;
}
function nearest(x, y) {
  let best = null, bd = 10;
  for (const o of pickables()) {
    const [sx, sy] = screenOf(o.p);
    const d = Math.hypot(sx - x, sy - y);
    if (d < bd) { bd = d; best = o; }
  }
  return best;
}
renderer.domElement.addEventListener('pointermove', (ev) => {
  const o = nearest(ev.clientX, ev.clientY), tip = $('mbs-tip');
  tip.style.display = o ? 'block' : 'none';
  if (o) { tip.textContent = o.text; tip.style.left = ev.clientX + 12 + 'px'; tip.style.top = ev.clientY + 12 + 'px'; }
});
renderer.domElement.addEventListener('click', (ev) => {
  const o = nearest(ev.clientX, ev.clientY);
  if (o && o.node !== undefined) toggleTrace(o.node);
});

// ---- plot panel: any quantity of the file against time, cursor at the current time
const plot = $('mbs-plot');
const sel = { g: $('mbs-pg'), e: $('mbs-pe'), q: $('mbs-pq'), c: $('mbs-pc') };
const series = new Map();
function options(s, items) {
  s.innerHTML = '';
  items.forEach((t, k) => { const o = document.createElement('option'); o.value = k; o.textContent = t; s.appendChild(o); });
}
function plotQuantity() {
  const g = D.plot.groups[+sel.g.value];
  return g ? g.quantities[+sel.q.value] : null;
}
function fillGroup() {
  const g = D.plot.groups[+sel.g.value];
  if (!g) return;
  options(sel.e, g.labels.map((l, k) => `${l}: ${g.names[k]}`));
  options(sel.q, g.quantities.map((q) => `${q.name} [${q.units}]`));
  sel.q.value = String(Math.max(0, g.quantities.findIndex((q) => q.name === 'X')));
  fillComp();
}
function fillComp() {
  const q = plotQuantity();
  if (q) options(sel.c, q.components);
  drawPlot();
}
function drawPlot() {
  const ctx = plot.getContext('2d');
  const w = plot.width = plot.clientWidth, h = plot.height = plot.clientHeight;
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, w, h);
  const g = D.plot.groups[+sel.g.value], q = plotQuantity();
  if (!g || !q) return;
  if (!series.has(q.bin)) series.set(q.bin, bin(q.bin));
  const data = series.get(q.bin), T = D.plot.times, n = g.labels.length, nc = q.components.length;
  const ei = +sel.e.value, ci = +sel.c.value;
  const y = T.map((_, k) => data[(k * n + ei) * nc + ci]);
  let ymin = Infinity, ymax = -Infinity;
  for (const v of y) if (Number.isFinite(v)) { ymin = Math.min(ymin, v); ymax = Math.max(ymax, v); }
  if (!(ymax >= ymin)) { ymin = -1; ymax = 1; }
  if (ymax - ymin < 1e-12 * Math.max(1, Math.abs(ymax))) { ymin -= 0.5; ymax += 0.5; }
  const t0 = T[0], t1 = T[T.length - 1] > t0 ? T[T.length - 1] : t0 + 1;
  const m = { l: 70, r: 12, t: 10, b: 22 };
  const X = (t) => m.l + (t - t0) / (t1 - t0) * (w - m.l - m.r);
  const Y = (v) => h - m.b - (v - ymin) / (ymax - ymin) * (h - m.t - m.b);
  ctx.strokeStyle = '#999'; ctx.strokeRect(m.l, m.t, w - m.l - m.r, h - m.t - m.b);
  ctx.fillStyle = '#333'; ctx.font = '11px sans-serif';
  ctx.fillText(ymax.toPrecision(4), 4, m.t + 10); ctx.fillText(ymin.toPrecision(4), 4, h - m.b);
  ctx.fillText(t0.toPrecision(4) + ' s', m.l, h - 6); ctx.fillText(t1.toPrecision(4) + ' s', w - m.r - 60, h - 6);
  ctx.strokeStyle = '#2b6fe8'; ctx.beginPath();
  let pen = false;
  y.forEach((v, k) => { if (!Number.isFinite(v)) { pen = false; return; } pen ? ctx.lineTo(X(T[k]), Y(v)) : ctx.moveTo(X(T[k]), Y(v)); pen = true; });
  ctx.stroke();
  ctx.strokeStyle = '#d0306a'; ctx.beginPath();
  ctx.moveTo(X(D.times[frame]), m.t); ctx.lineTo(X(D.times[frame]), h - m.b); ctx.stroke();
}
options(sel.g, D.plot.groups.map((g) => g.group));
sel.g.value = String(Math.max(0, D.plot.groups.findIndex((g) => g.group === 'nodes')));
sel.g.addEventListener('change', fillGroup);
sel.q.addEventListener('change', fillComp);
sel.e.addEventListener('change', drawPlot);
sel.c.addEventListener('change', drawPlot);

// ---- playback
let playing = false, last = 0, simTime = 0;
const slider = $('mbs-slider');
slider.max = String(F - 1);
slider.addEventListener('input', () => { setFrame(+slider.value); simTime = D.times[frame]; });
$('mbs-play').addEventListener('click', () => {
  playing = !playing;
  $('mbs-play').textContent = playing ? 'Pause' : 'Play';
  if (playing && frame === F - 1) { setFrame(0); }
  simTime = D.times[frame]; last = performance.now();
});
$('mbs-reset').addEventListener('click', resetView);
$('mbs-fit').addEventListener('click', fit);
function tick(now) {
  if (playing && F > 1) {
    const speed = +$('mbs-speed').value;
    simTime += (now - last) / 1000 * speed;
    let f = frame;
    while (f < F - 1 && D.times[f + 1] <= simTime) ++f;
    if (f === F - 1 && simTime >= D.times[F - 1]) { playing = false; $('mbs-play').textContent = 'Play'; }
    if (f !== frame) setFrame(f);
  }
  last = now;
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(tick);
}

window.addEventListener('resize', () => { resize(); drawPlot(); });
resize();
fit();
fillGroup();
setFrame(0);
renderer.render(scene, camera);
requestAnimationFrame(tick);

// Page state for tests and scripts: node positions (global, the file's frame) and their screen
// positions (CSS pixels of the page) at the current frame, the camera's matrices.
window.__mbsView = {
  ready: true,
  // ms since navigation: the page script starts (HTML parsed), the first frame is drawn
  timing: { script: scriptStart, ready: performance.now() },
  errors,
  get frame() { return frame; },
  get time() { return D.times[frame]; },
  nFrames: F,
  times: D.times,
  setFrame(f) { setFrame(f); renderer.render(scene, camera); },
  nodes() {
    renderer.render(scene, camera);
    return P.map((p, i) => ({ label: D.nodes.labels[i], world: [p.x + C.x, p.y + C.y, p.z + C.z], screen: screenOf(p) }));
  },
  camera() {
    camera.updateMatrixWorld();
    const r = renderer.domElement.getBoundingClientRect();
    const vp = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    return { viewProj: vp.elements.slice(), center: [C.x, C.y, C.z], rect: [r.left, r.top, r.width, r.height] };
  },
};
