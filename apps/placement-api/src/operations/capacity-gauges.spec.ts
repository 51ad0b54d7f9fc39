import { Registry } from 'prom-client';
import { CapacitySnapshot, registerCapacityGauges } from './capacity-gauges.js';

const snapshot: CapacitySnapshot = {
  capacity: [{ labels: { resource_class: 'VCPU' }, figures: { total: 16, reserved: 2, capacity: 56, used: 5 } }],
  projects: [{ labels: { project_id: 'p1', resource_class: 'VCPU' }, used: 5 }],
};

describe('capacity gauges', () => {
  it('read one snapshot per scrape, shared by the five gauges', async () => {
    const registry = new Registry();
    const read = jest.fn(async () => snapshot);
    registerCapacityGauges(registry, { byAggregate: false, projectUsage: true }, read);
    const text = await registry.metrics();
    expect(read).toHaveBeenCalledTimes(1);
    expect(text).toContain('placement_inventory_total{resource_class="VCPU"} 16');
    expect(text).toContain('placement_inventory_reserved{resource_class="VCPU"} 2');
    expect(text).toContain('placement_inventory_capacity{resource_class="VCPU"} 56');
    expect(text).toContain('placement_inventory_used{resource_class="VCPU"} 5');
    expect(text).toContain('placement_project_usage{project_id="p1",resource_class="VCPU"} 5');
    await registry.metrics();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('name no project unless the operator asks for project usage', async () => {
    const registry = new Registry();
    registerCapacityGauges(registry, { byAggregate: false, projectUsage: false }, async () => snapshot);
    const text = await registry.metrics();
    expect(text).toContain('placement_inventory_used{resource_class="VCPU"} 5');
    expect(text).not.toContain('placement_project_usage');
    expect(text).not.toContain('p1');
  });

  it('forget series that are gone by the next scrape', async () => {
    const registry = new Registry();
    let current = snapshot;
    registerCapacityGauges(registry, { byAggregate: false, projectUsage: true }, async () => current);
    await registry.metrics();
    current = { capacity: [], projects: [] };
    const text = await registry.metrics();
    expect(text).not.toContain('resource_class="VCPU"');
  });

  it('leave the series out and count a failure when the database does not answer, and the scrape still answers', async () => {
    const registry = new Registry();
    registerCapacityGauges(registry, { byAggregate: true, projectUsage: true }, async () => { throw new Error('connection refused'); });
    const text = await registry.metrics();
    expect(text).toContain('placement_capacity_scrape_failures_total 1');
    expect(text).not.toMatch(/^placement_inventory_total\{/m);
  });
});
